/**
 * `/app/events/{id}/rooms`: the room grid. One form holds the grid and its three buttons: Save saves it;
 * "Add nights" and "Copy night" change only the grid on the screen, as typed, and save nothing, so
 * nothing typed is lost and a copy is seen (with how much it adds) before it is saved or undone.
 */
import { viewMyEvent } from '../../../app/planning.js';
import { dayNumber } from '../../../domain/dates.js';
import { ROOM_TYPES } from '../../../domain/types.js';
import { renderCancelled } from '../../cancelled-page.js';
import { meetingDays, type NightRangeProblem, nightRange, nightsOutside } from '../../event-days.js';
import { type FormBody, type FormProblem, field, roomsBody } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import { NOTICES } from '../../notices.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { problemWords } from '../../problem-words.js';
import { cellName, copyNight, gridEntries, gridNights } from '../../room-grid.js';
import { type FormState, submitForm } from '../../submit-form.js';
import { savedNotice, saveEvent } from '../save-event.js';
import { type CopyReport, RoomsPage } from './view.js';

type RoomsRequest = PageRequest<typeof ROUTES.rooms>;

interface RoomsShown extends FormState {
  /** The grid as typed (and the add and copy fields), instead of the stored rooms. */
  values?: FormBody;
  /** The version the grid was read at; the event's version now when unset (a fresh grid, a stale one). */
  version?: string;
  /** Nights to show as empty rows ("Add nights"). */
  extraNights?: string[];
  /** What a copy just did to the grid, and the grid before it, for "Undo the copy". */
  copied?: Omit<CopyReport, 'outside' | 'eventDates'>;
  before?: FormBody;
  notice?: string;
}

async function roomsPage(page: RoomsRequest, shown: RoomsShown, status = 200) {
  const view = await viewMyEvent(page.deps, page.person, page.params.id);
  if (view.details.status === 'cancelled')
    return renderCancelled(page, view, `Rooms for ${view.details.name}`);
  const { accommodations, eventDates } = view.details;
  const stored: FormBody = {};
  for (const [night, counts] of Object.entries(accommodations)) {
    for (const type of ROOM_TYPES) {
      if (counts[type] !== undefined) stored[cellName(night, type)] = String(counts[type]);
    }
  }
  const values = shown.values ?? stored;
  const nights = new Set([
    ...Object.keys(accommodations),
    ...meetingDays(view.details.meetingRoomDates),
    ...gridNights(values),
    ...(shown.extraNights ?? []),
  ]);
  const copied = shown.copied && {
    ...shown.copied,
    outside: nightsOutside(shown.copied.range, eventDates),
    eventDates,
  };
  return page.render(
    RoomsPage({
      frame: page.frame(),
      script: page.frame().assets.roomsScript,
      model: {
        eventId: view.details.id,
        eventName: view.details.name,
        version: shown.version ?? view.version,
        nights: [...nights].filter((night) => dayNumber(night) !== undefined).sort(),
        values,
        problems: shown.problems ?? [],
        stale: shown.stale ?? false,
        ...(copied && shown.before ? { copied, before: shown.before } : {}),
        ...(shown.notice ? { notice: shown.notice } : {}),
      },
    }),
    status,
  );
}

/** The posted form without the fields named: an add or a copy that worked clears its own fields. */
const without = (form: FormBody, ...names: string[]): FormBody =>
  Object.fromEntries(Object.entries(form).filter(([name]) => !names.includes(name)));

/** A range's problem, named after the form's field for its first or last night, in words. */
function rangeProblem(problem: NightRangeProblem, first: string, last: string): FormProblem {
  const field = problem.field === 'first' ? first : last;
  return { field, message: problemWords({ ...problem, field }) };
}

export const rooms: PageModule = [
  // `?from=…&to=…` shows empty rows for those nights, as "Add nights" does.
  loader(ROUTES.rooms, (page) => {
    const from = String(page.query.from ?? '');
    if (from === '') return roomsPage(page, {});
    const range = nightRange(from, String(page.query.to ?? ''));
    if ('problem' in range)
      return roomsPage(page, { problems: [rangeProblem(range.problem, 'from', 'to')] }, 400);
    return roomsPage(page, { extraNights: range.nights });
  }),

  // Save: the grid as a change to the room block, onto the version the grid was read at.
  action(ROUTES.rooms, async (page) => {
    const { id } = page.params;
    const view = await viewMyEvent(page.deps, page.person, id);
    const version = field(page.form, 'version');
    return submitForm(page, {
      change: () => saveEvent(page, roomsBody(page.form, view.details.accommodations)),
      done: async () => page.redirect(href.event(id, 'rooms'), await savedNotice(page)),
      expects: { problems: true, stale: true, cancelled: true },
      // A stale grid takes the event's version now, so that a second Save applies what was typed.
      again: (state, status) =>
        roomsPage(page, { values: page.form, ...state, ...(state.stale ? {} : { version }) }, status),
    });
  }),

  action(ROUTES.addNights, (page) => {
    const version = field(page.form, 'version');
    const range = nightRange(field(page.form, 'from'), field(page.form, 'to'));
    if ('problem' in range) {
      const problems = [rangeProblem(range.problem, 'from', 'to')];
      return roomsPage(page, { values: page.form, version, problems }, 400);
    }
    return roomsPage(page, { values: without(page.form, 'from', 'to'), version, extraNights: range.nights });
  }),

  action(ROUTES.copyNight, (page) => {
    const version = field(page.form, 'version');
    const night = field(page.form, 'copyNight');
    const range = nightRange(field(page.form, 'copyFrom'), field(page.form, 'copyTo'));
    const problems: FormProblem[] = [];
    if (dayNumber(night) === undefined)
      problems.push({ field: 'copyNight', message: problemWords({ field: 'copyNight', code: 'required' }) });
    if ('problem' in range) problems.push(rangeProblem(range.problem, 'copyFrom', 'copyTo'));
    if (problems.length > 0 || 'problem' in range) {
      return roomsPage(page, { values: page.form, version, problems }, 400);
    }
    const before = gridEntries(page.form);
    const copy = copyNight(before, night, range.nights);
    return roomsPage(page, {
      values: { ...without(page.form, 'copyFrom', 'copyTo'), ...copy.values },
      version,
      copied: {
        night,
        range: range.nights,
        nightsAdded: copy.nightsAdded,
        roomNightsAdded: copy.roomNightsAdded,
      },
      before: { ...before, version },
    });
  }),

  // "Undo the copy" posts the grid as it was before the copy, which is shown again as it was.
  action(ROUTES.undoCopy, (page) =>
    roomsPage(page, {
      values: gridEntries(page.form),
      version: field(page.form, 'version'),
      notice: NOTICES['copy-undone'],
    }),
  ),
];
