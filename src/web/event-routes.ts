/**
 * The event pages (D15, D16), route-module style: each page has a loader (GET → use case → page) and
 * an action (POST → form token → use case → 303 to a page to GET, or the form again with every
 * problem beside its control and nothing written).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PeopleDeps } from '../app/people.js';
import { searchPlaces } from '../app/places.js';
import {
  ACTIVE_STATUSES,
  createMyEvent,
  duplicateMyEvent,
  listMyEvents,
  moveMyEvent,
  updateMyEvent,
  viewMyEvent,
} from '../app/planning.js';
import { dateText, dayNumber } from '../domain/dates.js';
import {
  AgendaSessionsOrphanedError,
  ChecklistIncompleteError,
  EventCancelledError,
  MoveNotAllowedError,
  NotInAGroupError,
  PreconditionFailedError,
  type Problem,
  ValidationError,
} from '../domain/errors.js';
import { isMove, MOVE_NOTE_FIELD, type Move } from '../domain/moves.js';
import { type EventStatus, ROOM_TYPES, STATUSES } from '../domain/types.js';
import {
  createBody,
  detailsBody,
  type FormBody,
  field,
  fields,
  roomsBody,
  sessionBody,
  sessionField,
  toFormField,
} from './forms.js';
import { type FrameOf, requirePerson } from './guard.js';
import { noticeOf } from './notices.js';
import { type AgendaModel, AgendaPage, SessionEditPage, sessionValues } from './pages/agenda.js';
import { type EventFormModel, EventFormPage, valuesOf } from './pages/event-form.js';
import { EventListPage } from './pages/event-list.js';
import { EventPage } from './pages/event-page.js';
import { type MoveModel, MovePage } from './pages/move.js';
import { RoomsPage } from './pages/rooms.js';
import { seeOther, sendPage } from './render.js';

type IdParams = { Params: { id: string } };
type SessionParams = { Params: { id: string; sessionId: string } };
type MoveParams = { Params: { id: string; move: string } };

/** Problems named after the form's controls: list entries (`decisionFactors[3]`) belong to their textarea. */
function formProblems(problems: readonly Problem[], rename: (field: string) => string = (name) => name) {
  return problems.map((problem) => ({
    field: rename(problem.field).replace(/^(decisionFactors|additionalServices)\[\d+\]$/, '$1'),
    message: problem.message,
  }));
}

/** The days of an event's meeting-room ranges, which are the days a session may be on. */
function meetingDays(ranges: ReadonlyArray<{ startDate: string; endDate: string }>): string[] {
  const days = new Set<string>();
  for (const range of ranges) {
    const first = dayNumber(range.startDate);
    const last = dayNumber(range.endDate);
    if (first === undefined || last === undefined) continue;
    for (let day = first; day <= last; day++) days.add(dateText(day));
  }
  return [...days].sort();
}

/** Nights from `from` to `to` (both included), at most a year of them; none when either is not a date. */
function nightsBetween(from: string, to: string): string[] {
  const first = dayNumber(from);
  const last = dayNumber(to);
  if (first === undefined || last === undefined || last < first) return [];
  return Array.from({ length: Math.min(last - first + 1, 366) }, (_, index) => dateText(first + index));
}

function requestedStatuses(query: Record<string, unknown>): { statuses: EventStatus[]; chosen: boolean } {
  const raw = query.status;
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
  const statuses = STATUSES.filter((status) => values.includes(status));
  return statuses.length > 0 ? { statuses, chosen: true } : { statuses: [...ACTIVE_STATUSES], chosen: false };
}

export function eventPages(deps: PeopleDeps, frameOf: FrameOf) {
  return async function register(app: FastifyInstance) {
    // Every POST carries the form token bound to the session (D15): without it, 403 and nothing written.
    app.addHook('preHandler', (request, reply, done) => {
      if (request.method === 'POST') app.csrfProtection(request, reply, done);
      else done();
    });
    app.addHook('preHandler', requirePerson);
    const frame = (request: FastifyRequest, reply: FastifyReply) => frameOf(request, reply);
    const person = (request: FastifyRequest) => request.person!;
    // Every edit form carries the version it was read at (D15).
    const saveEdit = (request: FastifyRequest<IdParams>, body: Record<string, unknown>) => {
      const version = field(request.body as FormBody, 'version');
      return updateMyEvent(deps, person(request), request.params.id, body, version);
    };

    app.get('/', async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const { statuses, chosen } = requestedStatuses(query);
      const search = typeof query.q === 'string' ? query.q : '';
      const page = Math.max(1, Math.min(Number.parseInt(String(query.page ?? '1'), 10) || 1, 1_000_000));
      const result = await listMyEvents(deps, person(request), { statuses, search, page });
      return sendPage(
        reply,
        EventListPage({
          frame: frame(request, reply),
          model: { ...result, statuses, search, defaultStatuses: !chosen },
          notice: noticeOf(query),
        }),
      );
    });

    // City suggestions for the location rows (the gazetteer's prefix search, most populous first).
    app.get('/places', async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const q = typeof query.q === 'string' ? query.q.slice(0, 100) : '';
      if (q.trim().length < 2) return reply.header('cache-control', 'no-store').send({ data: [] });
      const { data } = await searchPlaces(deps, { q, limit: 8 });
      return reply.header('cache-control', 'no-store').send({
        data: data.map((place) => ({ city: place.name, state: place.adminCode, country: place.countryCode })),
      });
    });

    // New event
    const newForm = (
      request: FastifyRequest,
      reply: FastifyReply,
      model: Partial<EventFormModel>,
      status = 200,
    ) =>
      sendPage(
        reply,
        EventFormPage({
          frame: frame(request, reply),
          model: { mode: 'create', values: {}, problems: [], ...model },
        }),
        status,
      );
    app.get('/events/new', async (request, reply) => newForm(request, reply, {}));
    app.post('/events/new', async (request, reply) => {
      const form = request.body as FormBody;
      const { body, rows } = createBody(form);
      try {
        const { id } = await createMyEvent(deps, person(request), body);
        return seeOther(reply, `/app/events/${id}`, 'created');
      } catch (error) {
        if (error instanceof NotInAGroupError) {
          return newForm(request, reply, { values: form, refusal: error.message }, 409);
        }
        if (!(error instanceof ValidationError)) throw error;
        const problems = formProblems(error.problems, (name) => toFormField(name, rows));
        return newForm(request, reply, { values: form, problems }, 400);
      }
    });

    // The event page
    app.get<IdParams>('/events/:id', async (request, reply) => {
      const view = await viewMyEvent(deps, person(request), request.params.id);
      return sendPage(
        reply,
        EventPage({ frame: frame(request, reply), view, notice: noticeOf(request.query) }),
      );
    });

    app.post<IdParams>('/events/:id/duplicate', async (request, reply) => {
      try {
        const { id } = await duplicateMyEvent(deps, person(request), request.params.id);
        return seeOther(reply, `/app/events/${id}`, 'duplicated');
      } catch (error) {
        if (!(error instanceof NotInAGroupError)) throw error;
        return seeOther(reply, `/app/events/${request.params.id}`, 'not-in-a-group');
      }
    });

    // Edit details
    const editForm = async (
      request: FastifyRequest<IdParams>,
      reply: FastifyReply,
      model: Partial<EventFormModel>,
      status = 200,
    ) => {
      const view = await viewMyEvent(deps, person(request), request.params.id);
      return sendPage(
        reply,
        EventFormPage({
          frame: frame(request, reply),
          model: {
            mode: 'edit',
            eventId: view.details.id,
            eventName: view.details.name,
            version: view.version,
            values: valuesOf(view.details),
            problems: [],
            ...model,
          },
        }),
        status,
      );
    };
    app.get<IdParams>('/events/:id/edit', async (request, reply) => editForm(request, reply, {}));
    app.post<IdParams>('/events/:id/edit', async (request, reply) => {
      const form = request.body as FormBody;
      const { body, rows } = detailsBody(form);
      const removals = fields(form, 'removeSession');
      if (removals.length > 0)
        body.agendaOperations = removals.map((sessionId) => ({ op: 'remove', sessionId }));
      try {
        await saveEdit(request, body);
        return seeOther(reply, `/app/events/${request.params.id}`, 'saved');
      } catch (error) {
        if (error instanceof ValidationError) {
          const problems = formProblems(error.problems, (name) => toFormField(name, rows));
          return editForm(request, reply, { values: form, problems, version: field(form, 'version') }, 400);
        }
        if (error instanceof AgendaSessionsOrphanedError) {
          return editForm(
            request,
            reply,
            { values: form, orphans: error.orphanedSessions, version: field(form, 'version') },
            409,
          );
        }
        if (error instanceof PreconditionFailedError)
          return editForm(request, reply, { values: form, stale: true }, 409);
        if (error instanceof EventCancelledError) return seeOther(reply, `/app/events/${request.params.id}`);
        throw error;
      }
    });

    // The room block
    const roomsPage = async (
      request: FastifyRequest<IdParams>,
      reply: FastifyReply,
      model: {
        values?: FormBody;
        problems?: Array<{ field: string; message: string }>;
        stale?: boolean;
        extraNights?: string[];
      },
      status = 200,
    ) => {
      const view = await viewMyEvent(deps, person(request), request.params.id);
      const { accommodations } = view.details;
      const values: FormBody = {};
      for (const [night, counts] of Object.entries(accommodations)) {
        for (const type of ROOM_TYPES) {
          if (counts[type] !== undefined) values[`accommodations.${night}.${type}`] = String(counts[type]);
        }
      }
      const posted = model.values ?? {};
      const postedNights = Object.keys(posted).flatMap(
        (name) => /^accommodations\.([^.]+)\./.exec(name)?.[1] ?? [],
      );
      const nights = new Set([
        ...Object.keys(accommodations),
        ...meetingDays(view.details.meetingRoomDates),
        ...postedNights,
        ...(model.extraNights ?? []),
      ]);
      return sendPage(
        reply,
        RoomsPage({
          frame: frame(request, reply),
          script: frame(request, reply).assets.roomsScript,
          model: {
            eventId: view.details.id,
            eventName: view.details.name,
            version: view.version,
            nights: [...nights].filter((night) => dayNumber(night) !== undefined).sort(),
            values: model.values ?? values,
            problems: model.problems ?? [],
            stale: model.stale ?? false,
          },
        }),
        status,
      );
    };
    app.get<IdParams>('/events/:id/rooms', async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const extraNights = nightsBetween(String(query.from ?? ''), String(query.to ?? query.from ?? ''));
      return roomsPage(request, reply, { extraNights });
    });
    const saveRooms = async (
      request: FastifyRequest<IdParams>,
      reply: FastifyReply,
      body: Record<string, unknown>,
      /** The grid's entries to show again after a refusal; none after a copy, whose form is not the grid. */
      form: FormBody | undefined,
    ) => {
      try {
        await saveEdit(request, body);
        return seeOther(reply, `/app/events/${request.params.id}#rooms`, 'saved');
      } catch (error) {
        if (error instanceof ValidationError)
          return roomsPage(request, reply, { values: form, problems: formProblems(error.problems) }, 400);
        if (error instanceof PreconditionFailedError)
          return roomsPage(request, reply, { values: form, stale: true }, 409);
        if (error instanceof EventCancelledError) return seeOther(reply, `/app/events/${request.params.id}`);
        throw error;
      }
    };
    app.post<IdParams>('/events/:id/rooms', async (request, reply) => {
      const form = request.body as FormBody;
      const view = await viewMyEvent(deps, person(request), request.params.id);
      return saveRooms(request, reply, roomsBody(form, view.details.accommodations), form);
    });
    app.post<IdParams>('/events/:id/rooms/copy', async (request, reply) => {
      const form = request.body as FormBody;
      const view = await viewMyEvent(deps, person(request), request.params.id);
      const source = view.details.accommodations[field(form, 'copyNight')] ?? {};
      const nights = nightsBetween(field(form, 'copyFrom'), field(form, 'copyTo'));
      if (nights.length === 0) {
        const problem = {
          field: 'copyFrom',
          message: 'Give the first and last night of the range, first before last.',
        };
        return roomsPage(request, reply, { problems: [problem] }, 400);
      }
      // Each night of the range becomes exactly the copied night: its other room types are removed.
      const counts = Object.fromEntries(ROOM_TYPES.map((type) => [type, source[type] ?? null]));
      const accommodations = Object.fromEntries(nights.map((night) => [night, counts]));
      return saveRooms(request, reply, { accommodations }, undefined);
    });

    // The agenda
    const agendaPage = async (
      request: FastifyRequest<IdParams>,
      reply: FastifyReply,
      model: Partial<AgendaModel>,
      status = 200,
    ) => {
      const view = await viewMyEvent(deps, person(request), request.params.id);
      return sendPage(
        reply,
        AgendaPage({
          frame: frame(request, reply),
          notice: noticeOf(request.query),
          model: {
            eventId: view.details.id,
            eventName: view.details.name,
            version: view.version,
            agenda: view.details.agenda,
            meetingDays: meetingDays(view.details.meetingRoomDates),
            values: {},
            problems: [],
            ...model,
          },
        }),
        status,
      );
    };
    app.get<IdParams>('/events/:id/agenda', async (request, reply) => agendaPage(request, reply, {}));
    const agendaChange = async (
      request: FastifyRequest<IdParams>,
      reply: FastifyReply,
      operation: Record<string, unknown>,
      done: 'session-added' | 'session-removed',
    ) => {
      const form = request.body as FormBody;
      try {
        await saveEdit(request, { agendaOperations: [operation] });
        return seeOther(reply, `/app/events/${request.params.id}/agenda`, done);
      } catch (error) {
        const values = done === 'session-added' ? form : {};
        if (error instanceof ValidationError) {
          return agendaPage(
            request,
            reply,
            { values, problems: formProblems(error.problems, sessionField) },
            400,
          );
        }
        if (error instanceof PreconditionFailedError)
          return agendaPage(request, reply, { values, stale: true }, 409);
        if (error instanceof EventCancelledError) return seeOther(reply, `/app/events/${request.params.id}`);
        throw error;
      }
    };
    app.post<IdParams>('/events/:id/agenda', async (request, reply) =>
      agendaChange(
        request,
        reply,
        { op: 'add', session: sessionBody(request.body as FormBody) },
        'session-added',
      ),
    );
    app.post<SessionParams>('/events/:id/agenda/:sessionId/remove', async (request, reply) =>
      agendaChange(request, reply, { op: 'remove', sessionId: request.params.sessionId }, 'session-removed'),
    );

    const sessionPage = async (
      request: FastifyRequest<SessionParams>,
      reply: FastifyReply,
      model: { values?: FormBody; problems?: Array<{ field: string; message: string }>; stale?: boolean },
      status = 200,
    ) => {
      const view = await viewMyEvent(deps, person(request), request.params.id);
      const session = view.details.agenda.find((item) => item.id === request.params.sessionId.toLowerCase());
      if (!session) return reply.callNotFound();
      return sendPage(
        reply,
        SessionEditPage({
          frame: frame(request, reply),
          model: {
            eventId: view.details.id,
            eventName: view.details.name,
            sessionId: session.id,
            version: view.version,
            meetingDays: meetingDays(view.details.meetingRoomDates),
            values: model.values ?? sessionValues(session),
            problems: model.problems ?? [],
            stale: model.stale ?? false,
          },
        }),
        status,
      );
    };
    app.get<SessionParams>('/events/:id/agenda/:sessionId', async (request, reply) =>
      sessionPage(request, reply, {}),
    );
    app.post<SessionParams>('/events/:id/agenda/:sessionId', async (request, reply) => {
      const form = request.body as FormBody;
      const operation = { op: 'update', sessionId: request.params.sessionId, session: sessionBody(form) };
      try {
        await saveEdit(request, { agendaOperations: [operation] });
        return seeOther(reply, `/app/events/${request.params.id}/agenda`, 'session-saved');
      } catch (error) {
        if (error instanceof ValidationError) {
          return sessionPage(
            request,
            reply,
            { values: form, problems: formProblems(error.problems, sessionField) },
            400,
          );
        }
        if (error instanceof PreconditionFailedError)
          return sessionPage(request, reply, { values: form, stale: true }, 409);
        if (error instanceof EventCancelledError) return seeOther(reply, `/app/events/${request.params.id}`);
        throw error;
      }
    });

    // Status moves (D16): a confirmation step, then the POST.
    const movePage = async (
      request: FastifyRequest<MoveParams>,
      reply: FastifyReply,
      move: Move,
      model: Partial<MoveModel>,
      status = 200,
    ) => {
      const view = await viewMyEvent(deps, person(request), request.params.id);
      return sendPage(
        reply,
        MovePage({
          frame: frame(request, reply),
          model: {
            eventId: view.details.id,
            eventName: view.details.name,
            status: view.details.status,
            move,
            note: '',
            problems: [],
            missing: [],
            ...model,
          },
        }),
        status,
      );
    };
    app.get<MoveParams>('/events/:id/moves/:move', async (request, reply) => {
      const { move } = request.params;
      if (!isMove(move)) return reply.callNotFound();
      return movePage(request, reply, move, {});
    });
    app.post<MoveParams>('/events/:id/moves/:move', async (request, reply) => {
      const { move } = request.params;
      if (!isMove(move)) return reply.callNotFound();
      const form = request.body as FormBody;
      const noteField = MOVE_NOTE_FIELD[move];
      const note = noteField ? field(form, noteField) : undefined;
      try {
        await moveMyEvent(deps, person(request), request.params.id, { move, note });
        return seeOther(reply, `/app/events/${request.params.id}`, 'moved');
      } catch (error) {
        if (error instanceof ValidationError)
          return movePage(request, reply, move, { note: note ?? '', problems: error.problems }, 400);
        if (error instanceof ChecklistIncompleteError)
          return movePage(request, reply, move, { missing: error.missing }, 409);
        if (error instanceof MoveNotAllowedError)
          return movePage(request, reply, move, { refusal: error.message }, 409);
        throw error;
      }
    });
  };
}
