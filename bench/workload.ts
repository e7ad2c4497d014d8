/**
 * What the benchmark sends: realistic event bodies (3 locations, a budget, 10 nights of rooms,
 * 8 agenda sessions) and the ids the seeded events carry.
 *
 * Ids are derived from an event's index, so the load generator knows every seeded event's id and
 * the ids of its sessions without storing or fetching them: event k has id `uuidFor(k, 0)` and
 * sessions `uuidFor(k, 1)` … `uuidFor(k, 8)`.
 */

export const SESSIONS_PER_EVENT = 8;
export const NIGHTS_PER_EVENT = 10;
const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2026, 0, 5);

/** murmur3's 32-bit finalizer: a bijection, so distinct inputs give distinct words. */
function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const hex8 = (value: number) => value.toString(16).padStart(8, '0');

/** A random-looking, unique, version-4-shaped UUID for slot `slot` (0 = the event) of event `index`. */
export function uuidFor(index: number, slot: number): string {
  const first = mix32(index * 16 + slot);
  const words = [first, mix32(first ^ 0x9e3779b9), mix32(first ^ 0x7f4a7c15), mix32(first ^ 0x94d049bb)];
  const text = words.map(hex8).join('');
  const variant = ((Number.parseInt(text[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-4${text.slice(13, 16)}-${variant}${text.slice(17, 20)}-${text.slice(20, 32)}`;
}

export const eventIdFor = (index: number) => uuidFor(index, 0);
export const sessionIdFor = (index: number, session: number) => uuidFor(index, session + 1);

const day = (offset: number) => new Date(FIRST_DAY + offset * DAY_MS).toISOString().slice(0, 10);

/** The first meeting day of event `index`; its meeting rooms run four days from there. */
const firstMeetingDay = (index: number) => index % 300;
/** A meeting day of event `index` (0–3), for session dates that always stay inside meetingRoomDates. */
export const meetingDayOf = (index: number, which: number) => day(firstMeetingDay(index) + (which % 4));

const CITIES = [
  ['Lisbon', '', 'Portugal'],
  ['Austin', 'TX', 'United States'],
  ['Barcelona', 'Catalonia', 'Spain'],
  ['Denver', 'CO', 'United States'],
  ['Vancouver', 'BC', 'Canada'],
  ['Singapore', '', 'Singapore'],
  ['Munich', 'Bavaria', 'Germany'],
  ['Kyoto', '', 'Japan'],
];
const SESSION_TITLES = [
  'Opening keynote',
  'Product roadmap',
  'Customer panel',
  'Lunch',
  'Breakout: sales',
  'Breakout: engineering',
  'Awards dinner',
  'Closing remarks',
];
const SESSION_TIMES = [
  ['09:00', '10:30'],
  ['11:00', '12:30'],
  ['13:30', '15:00'],
  ['12:30', '13:30'],
  ['15:30', '17:00'],
  ['15:30', '17:00'],
  ['19:00', '22:00'],
  ['17:00', '17:45'],
];

/** A create body (POST /v1/events) of realistic size; `index` varies cities, dates and counts. */
export function createBody(index: number): Record<string, unknown> {
  const start = firstMeetingDay(index);
  const accommodations: Record<string, Record<string, number>> = {};
  for (let night = 0; night < NIGHTS_PER_EVENT; night++) {
    accommodations[day(start - 3 + night)] = { Single: 20 + ((index + night) % 30), Double: 5 + (night % 4) };
  }
  const agenda = SESSION_TITLES.map((title, session) => ({
    title,
    dates: [day(start + (session % 4))],
    startTime: SESSION_TIMES[session]![0],
    endTime: SESSION_TIMES[session]![1],
    roomType: session === 0 ? 'Theatre' : 'Classroom',
    capacity: 40 + ((index + session) % 80),
    avRequirements: session < 3 ? ['Projector', 'Lapel mic'] : [],
    fbRequirements: session === 3 ? ['Buffet lunch'] : [],
    notes: session === 0 ? 'Stage with lectern' : '',
  }));
  return {
    name: `Sales kickoff ${2026 + (index % 3)} #${index}`,
    currency: 'USD',
    formattedLocations: [0, 1, 2].map((offset) => {
      const [city, state, country] = CITIES[(index + offset * 3) % CITIES.length]!;
      return state ? { city, state, country } : { city, country };
    }),
    eventDates: [{ startDate: day(start), endDate: day(start + 3) }],
    numPeople: 80 + (index % 120),
    budgetBreakdown: { venue: 42000, fb: 18500.5, av: 6200, transport: 3100, activities: 2500 },
    flexibility: 'Could move by a week either way',
    decisionDeadline: `${day(start - 60)}T17:00:00Z`,
    accommodations,
    agenda,
    numMeetingRoomsNeeded: 3,
    foodBeverageRequirements: 'Vegetarian and gluten-free options at every meal',
    otherNotes: 'Prefer venues within 30 minutes of the airport',
    decisionFactors: ['Price', 'Location', 'Meeting space'],
    additionalServices: ['Airport transfers'],
  };
}

/**
 * A typical update (PATCH /v1/events/{id}): a budget change, two nights, and three agenda
 * operations: an update of a session every seeded event has, an add inside its meeting days, and
 * either the removal of a session an earlier update added (`removeSessionId`) or a second update.
 * Always valid however often it is repeated; `variant` makes each one an actual change.
 */
export function patchBody(index: number, variant: number, removeSessionId?: string): Record<string, unknown> {
  const start = firstMeetingDay(index);
  return {
    budgetBreakdown: { venue: 40000 + (variant % 5000), fb: 18000 + (variant % 997) },
    accommodations: {
      [day(start)]: { Single: 20 + (variant % 40) },
      [day(start + 1)]: { Double: 5 + (variant % 10), Suite: variant % 3 },
    },
    agendaOperations: [
      { op: 'update', sessionId: sessionIdFor(index, 1), session: { capacity: 40 + (variant % 200) } },
      {
        op: 'add',
        session: {
          title: 'Side meeting',
          dates: [meetingDayOf(index, variant)],
          startTime: '08:00',
          endTime: '08:45',
        },
      },
      removeSessionId === undefined
        ? {
            op: 'update',
            sessionId: sessionIdFor(index, 4),
            session: { notes: `Room layout v${variant % 1000}`, avRequirements: ['Flipchart'] },
          }
        : { op: 'remove', sessionId: removeSessionId },
    ],
  };
}

/** The clock seeded event `index` of `count` is created at: spread over the year before `end`. */
export function createdAtFor(index: number, count: number, end: number): Date {
  const step = Math.max(1, Math.floor((365 * DAY_MS) / Math.max(count, 1)));
  return new Date(end - (count - index) * step);
}
