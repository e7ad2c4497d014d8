/**
 * `/app/events/{id}/rooms`: the room grid. Its form saves the grid; "Add nights" only shows more rows
 * (a GET); "Copy night" gives a range of nights the rooms of one night and saves at once.
 */
import { viewMyEvent } from '../../../app/planning.js';
import { dayNumber } from '../../../domain/dates.js';
import { ROOM_TYPES } from '../../../domain/types.js';
import { meetingDays, nightsBetween } from '../../event-days.js';
import { type FormBody, field, roomsBody } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { type FormState, submitForm } from '../../submit-form.js';
import { saveEvent } from '../save-event.js';
import { RoomsPage } from './view.js';

type RoomsRequest = PageRequest<typeof ROUTES.rooms>;

interface RoomsShown extends FormState {
  /** What the grid shows instead of the stored rooms: the entries of a refused save. */
  values?: FormBody;
  /** Nights to show as empty rows ("Add nights"). */
  extraNights?: string[];
}

async function roomsPage(page: RoomsRequest, shown: RoomsShown, status = 200) {
  const view = await viewMyEvent(page.deps, page.person, page.params.id);
  const { accommodations } = view.details;
  const stored: FormBody = {};
  for (const [night, counts] of Object.entries(accommodations)) {
    for (const type of ROOM_TYPES) {
      if (counts[type] !== undefined) stored[`accommodations.${night}.${type}`] = String(counts[type]);
    }
  }
  const postedNights = Object.keys(shown.values ?? {}).flatMap(
    (name) => /^accommodations\.([^.]+)\./.exec(name)?.[1] ?? [],
  );
  const nights = new Set([
    ...Object.keys(accommodations),
    ...meetingDays(view.details.meetingRoomDates),
    ...postedNights,
    ...(shown.extraNights ?? []),
  ]);
  return page.render(
    RoomsPage({
      frame: page.frame(),
      script: page.frame().assets.roomsScript,
      model: {
        eventId: view.details.id,
        eventName: view.details.name,
        version: view.version,
        nights: [...nights].filter((night) => dayNumber(night) !== undefined).sort(),
        values: shown.values ?? stored,
        problems: shown.problems ?? [],
        stale: shown.stale ?? false,
      },
    }),
    status,
  );
}

/**
 * Saves a change to the room block onto the version the form was read at; a refusal shows the grid
 * again with `entries`, the grid's entries as posted (none after a copy: its form is not the grid).
 */
function saveRooms(page: RoomsRequest, body: Record<string, unknown>, entries: FormBody | undefined) {
  const { id } = page.params;
  return submitForm(page, {
    change: () => saveEvent(page, body),
    done: () => page.redirect(href.event(id, 'rooms'), 'saved'),
    expects: { problems: true, stale: true, cancelled: href.event(id) },
    again: (state, status) => roomsPage(page, { values: entries, ...state }, status),
  });
}

export const rooms: PageModule = [
  loader(ROUTES.rooms, (page) => {
    const from = String(page.query.from ?? '');
    const extraNights = nightsBetween(from, String(page.query.to ?? page.query.from ?? ''));
    return roomsPage(page, { extraNights });
  }),

  action(ROUTES.rooms, async (page) => {
    const view = await viewMyEvent(page.deps, page.person, page.params.id);
    return saveRooms(page, roomsBody(page.form, view.details.accommodations), page.form);
  }),

  action(ROUTES.copyNight, async (page) => {
    const view = await viewMyEvent(page.deps, page.person, page.params.id);
    const source = view.details.accommodations[field(page.form, 'copyNight')] ?? {};
    const nights = nightsBetween(field(page.form, 'copyFrom'), field(page.form, 'copyTo'));
    if (nights.length === 0) {
      const problem = {
        field: 'copyFrom',
        message: 'Give the first and last night of the range, first before last.',
      };
      return roomsPage(page, { problems: [problem] }, 400);
    }
    // Each night of the range becomes exactly the copied night: its other room types are removed.
    const counts = Object.fromEntries(ROOM_TYPES.map((type) => [type, source[type] ?? null]));
    const accommodations = Object.fromEntries(nights.map((night) => [night, counts]));
    return saveRooms(page, { accommodations }, undefined);
  }),
];
