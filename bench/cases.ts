/** The benchmark's cases: which requests each sends. Shared by the runner and the load generator. */
import { createBody, eventIdFor, patchBody } from './workload.js';

export const CASE_NAMES = [
  'get-by-id',
  'list-page-1',
  'list-deep',
  'patch',
  'post',
  'mix',
  'places',
] as const;
export type CaseName = (typeof CASE_NAMES)[number];

export const CASE_TITLES: Record<CaseName, string> = {
  'get-by-id': 'GET /v1/events/{id} (random id)',
  'list-page-1': 'GET /v1/events?page=1&limit=20',
  'list-deep': 'GET /v1/events (middle page)',
  patch: 'PATCH /v1/events/{id}',
  post: 'POST /v1/events',
  mix: 'mix 80% reads / 20% writes',
  places: 'GET /v1/places?q=…&limit=10 (city picker prefixes, 1 in 4 with a country)',
};

/** What a city picker sends as someone types: short and longer prefixes, common and rare, accents included. */
export const PLACE_QUERIES = [
  'l',
  'li',
  'lis',
  'lisb',
  'sa',
  'san',
  'san f',
  'sao p',
  'são',
  'ber',
  'berl',
  'par',
  'pari',
  'new',
  'new y',
  'lon',
  'lond',
  'mu',
  'mün',
  'spr',
  'springf',
  'to',
  'tok',
  'zu',
  'zür',
  'a',
  'b',
  'm',
  's',
  'k',
];
const PLACE_COUNTRIES = ['PT', 'US', 'DE', 'BR'];

export const LIST_LIMIT = 20;

/**
 * The middle page: the store reads a page from whichever end of the list is nearer, so the middle is
 * the deepest page there is (the last page is as near as the first).
 */
export const deepPageOf = (eventCount: number) => Math.max(1, Math.ceil(eventCount / LIST_LIMIT / 2));

export interface BuiltRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: string;
  /** For PATCH: the seeded event it changes. */
  eventIndex?: number;
}

export interface RequestMaker {
  next(): BuiltRequest;
  /** Sees each response, so later updates can remove the sessions earlier ones added. */
  observe(request: BuiltRequest, status: number, body: string): void;
}

/** The id of every session a PATCH added (they are titled "Side meeting"), in a response body. */
const ADDED_SESSION = /"id":"([0-9a-f-]{36})","title":"Side meeting"/g;

/**
 * Makes the requests of a case. `eventCount` seeded events exist (indices 0 … count-1).
 *
 * Every PATCH adds a session; the next PATCH of the same event removes one that a response has
 * shown, so agendas do not grow over a run. Each added session is handed out for removal once, at
 * most: it existed when a response showed it and nothing else removes it, so every request stays
 * valid however the connections interleave.
 */
export function requestMaker(
  name: CaseName,
  eventCount: number,
  random: () => number = Math.random,
): RequestMaker {
  let variant = 0;
  const added = new Map<number, string[]>();
  const handedOut = new Set<string>();
  const anyEvent = () => Math.floor(random() * eventCount);
  const getById = (): BuiltRequest => ({ method: 'GET', path: `/v1/events/${eventIdFor(anyEvent())}` });
  const listFirst = (): BuiltRequest => ({ method: 'GET', path: `/v1/events?page=1&limit=${LIST_LIMIT}` });
  const listDeep = (): BuiltRequest => ({
    method: 'GET',
    path: `/v1/events?page=${deepPageOf(eventCount)}&limit=${LIST_LIMIT}`,
  });
  const post = (): BuiltRequest => ({
    method: 'POST',
    path: '/v1/events',
    body: JSON.stringify(createBody(eventCount + variant++)),
  });
  const patch = (): BuiltRequest => {
    const eventIndex = anyEvent();
    const removable = added.get(eventIndex)?.pop();
    if (removable !== undefined) handedOut.add(removable);
    return {
      method: 'PATCH',
      path: `/v1/events/${eventIdFor(eventIndex)}`,
      body: JSON.stringify(patchBody(eventIndex, variant++, removable)),
      eventIndex,
    };
  };
  const places = (): BuiltRequest => {
    const q = encodeURIComponent(PLACE_QUERIES[variant++ % PLACE_QUERIES.length]!);
    const country = variant % 4 === 0 ? `&country=${PLACE_COUNTRIES[variant % PLACE_COUNTRIES.length]}` : '';
    return { method: 'GET', path: `/v1/places?q=${q}&limit=10${country}` };
  };
  const pick = (): (() => BuiltRequest) => {
    switch (name) {
      case 'places':
        return places;
      case 'get-by-id':
        return getById;
      case 'list-page-1':
        return listFirst;
      case 'list-deep':
        return listDeep;
      case 'post':
        return post;
      case 'patch':
        return patch;
      case 'mix':
        // Reads: 70% one event, 10% the first page. Writes: 15% updates, 5% creates.
        return () => {
          const draw = random();
          if (draw < 0.7) return getById();
          if (draw < 0.8) return listFirst();
          if (draw < 0.95) return patch();
          return post();
        };
    }
  };
  return {
    next: pick(),
    observe(request, status, body) {
      if (request.eventIndex === undefined || status !== 200) return;
      const known = added.get(request.eventIndex) ?? [];
      for (const match of body.matchAll(ADDED_SESSION)) {
        const id = match[1]!;
        if (!handedOut.has(id) && !known.includes(id)) known.push(id);
      }
      added.set(request.eventIndex, known);
    },
  };
}
