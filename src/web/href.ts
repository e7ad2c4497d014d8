/**
 * Every address of the dashboard, in one place: the patterns its pages are registered under and the
 * typed functions that build links, form actions and redirects from them, so no page writes a path.
 */
import { DASHBOARD_PATH, MAILED_PAGES } from '../domain/dashboard-paths.js';
import { fieldId } from './forms.js';

/** Where the dashboard is mounted (shared with the mails' links); every pattern below is relative to it. */
export { DASHBOARD_PATH };

/** The route patterns (Fastify's syntax: `:name` is one path segment). */
export const ROUTES = {
  events: '/',
  placeSuggestions: '/places',
  newEvent: '/events/new',
  // Pages that mails link to take their pattern from the one place the use cases read too.
  event: MAILED_PAGES.event,
  duplicateEvent: '/events/:id/duplicate',
  editEvent: '/events/:id/edit',
  rooms: '/events/:id/rooms',
  addNights: '/events/:id/rooms/add',
  copyNight: '/events/:id/rooms/copy',
  undoCopy: '/events/:id/rooms/undo-copy',
  agenda: '/events/:id/agenda',
  proposals: MAILED_PAGES.proposals,
  proposalsCsv: '/events/:id/proposals.csv',
  awardProposal: '/events/:id/proposals/:requestId/award',
  declineProposal: '/events/:id/proposals/:requestId/decline',
  requestRevision: '/events/:id/proposals/:requestId/revision',
  agendaSession: '/events/:id/agenda/:sessionId',
  removeAgendaSession: '/events/:id/agenda/:sessionId/remove',
  move: '/events/:id/moves/:move',
  addEventVenue: '/events/:id/venues/add',
  withdrawRequest: '/events/:id/venues/:requestId/withdraw',
  moveReplyDate: '/events/:id/venues/:requestId/reply-date',
  moveReplyDates: '/events/:id/venues/reply-dates',
  sendChanges: '/events/:id/send-changes',
  answerQuestion: '/events/:id/questions/:questionId',
  venues: '/venues',
  newVenue: '/venues/new',
  venue: '/venues/:venueId',
  archiveVenue: '/venues/:venueId/archive',
  signIn: '/sign-in',
  signOut: '/sign-out',
  invite: '/invite/:token',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  account: MAILED_PAGES.account,
  sessions: '/sessions',
  endSession: '/sessions/:id/end',
  asset: '/assets/',
} as const;

export type RoutePattern = (typeof ROUTES)[keyof typeof ROUTES];

type ParamNames<Pattern extends string> = Pattern extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Pattern extends `${string}:${infer Name}`
    ? Name
    : never;

/** The parameters a pattern names: `/events/:id/agenda/:sessionId` → `{ id, sessionId }`. */
export type RouteParams<Pattern extends string> = { [Name in ParamNames<Pattern>]: string };

/** A pattern filled in, each value encoded so that it stays within its own segment. */
function pathOf<Pattern extends string>(pattern: Pattern, params: RouteParams<Pattern>): string {
  const path = pattern.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent((params as Record<string, string>)[name]!),
  );
  return path === '/' ? DASHBOARD_PATH : `${DASHBOARD_PATH}${path}`;
}

const withQuery = (path: string, query: URLSearchParams) => (query.size > 0 ? `${path}?${query}` : path);

/** The edit form, scrolled to one field's control when the checklist or a problem points at it. */
const editEvent = (id: string, field?: string) =>
  `${pathOf(ROUTES.editEvent, { id })}${field ? `#${fieldId(field)}` : ''}`;

export const href = {
  /** The event list, with the filters and page it shows (none: the active events, page 1). */
  events(filters: { statuses?: readonly string[]; search?: string; page?: number } = {}) {
    const query = new URLSearchParams();
    for (const status of filters.statuses ?? []) query.append('status', status);
    if (filters.search) query.set('q', filters.search);
    if (filters.page !== undefined) query.set('page', String(filters.page));
    return withQuery(pathOf(ROUTES.events, {}), query);
  },
  newEvent: () => pathOf(ROUTES.newEvent, {}),
  /** The event page, at one of its sections (`rooms`, …) when given. */
  event: (id: string, section?: string) => `${pathOf(ROUTES.event, { id })}${section ? `#${section}` : ''}`,
  duplicateEvent: (id: string) => pathOf(ROUTES.duplicateEvent, { id }),
  editEvent,
  rooms: (id: string) => pathOf(ROUTES.rooms, { id }),
  addNights: (id: string) => pathOf(ROUTES.addNights, { id }),
  copyNight: (id: string) => pathOf(ROUTES.copyNight, { id }),
  undoCopy: (id: string) => pathOf(ROUTES.undoCopy, { id }),
  agenda: (id: string) => pathOf(ROUTES.agenda, { id }),
  /** The Proposals tab: the standing proposals side by side (D24). */
  proposals: (id: string) => pathOf(ROUTES.proposals, { id }),
  proposalsCsv: (id: string) => pathOf(ROUTES.proposalsCsv, { id }),
  awardProposal: (id: string, requestId: string) => pathOf(ROUTES.awardProposal, { id, requestId }),
  declineProposal: (id: string, requestId: string) => pathOf(ROUTES.declineProposal, { id, requestId }),
  requestRevision: (id: string, requestId: string) => pathOf(ROUTES.requestRevision, { id, requestId }),
  agendaSession: (id: string, sessionId: string) => pathOf(ROUTES.agendaSession, { id, sessionId }),
  removeAgendaSession: (id: string, sessionId: string) =>
    pathOf(ROUTES.removeAgendaSession, { id, sessionId }),
  move: (id: string, move: string) => pathOf(ROUTES.move, { id, move }),
  /** Choosing a venue of the directory for the event, with the directory searched when `search` is given. */
  addEventVenue(id: string, options: { search?: string } = {}) {
    const query = new URLSearchParams(options.search ? { q: options.search } : {});
    return withQuery(pathOf(ROUTES.addEventVenue, { id }), query);
  },
  withdrawRequest: (id: string, requestId: string) => pathOf(ROUTES.withdrawRequest, { id, requestId }),
  moveReplyDate: (id: string, requestId: string) => pathOf(ROUTES.moveReplyDate, { id, requestId }),
  moveReplyDates: (id: string) => pathOf(ROUTES.moveReplyDates, { id }),
  sendChanges: (id: string) => pathOf(ROUTES.sendChanges, { id }),
  answerQuestion: (id: string, questionId: string) => pathOf(ROUTES.answerQuestion, { id, questionId }),
  /** The Venues page: the directory searched, a page of it, or its archived venues. */
  venues(options: { search?: string; archived?: boolean; page?: number } = {}) {
    const query = new URLSearchParams();
    if (options.search) query.set('q', options.search);
    if (options.archived) query.set('archived', '1');
    if (options.page !== undefined && options.page > 1) query.set('page', String(options.page));
    return withQuery(pathOf(ROUTES.venues, {}), query);
  },
  newVenue: () => pathOf(ROUTES.newVenue, {}),
  venue: (venueId: string) => pathOf(ROUTES.venue, { venueId }),
  archiveVenue: (venueId: string) => pathOf(ROUTES.archiveVenue, { venueId }),
  /** The sign-in page; `next` is where to go once signed in. */
  signIn(options: { next?: string } = {}) {
    const query = new URLSearchParams(options.next === undefined ? {} : { next: options.next });
    return withQuery(pathOf(ROUTES.signIn, {}), query);
  },
  signOut: () => pathOf(ROUTES.signOut, {}),
  invite: (token: string) => pathOf(ROUTES.invite, { token }),
  forgotPassword: () => pathOf(ROUTES.forgotPassword, {}),
  /**
   * Where a "Forgot password" link leads. The token is in the query, not the path: the access log
   * writes paths only, so the link is never logged.
   */
  resetPassword: (token?: string) =>
    withQuery(pathOf(ROUTES.resetPassword, {}), new URLSearchParams(token === undefined ? {} : { token })),
  /** The person's account page: the mails they receive (D24). */
  account: () => pathOf(ROUTES.account, {}),
  sessions: () => pathOf(ROUTES.sessions, {}),
  endSession: (id: string) => pathOf(ROUTES.endSession, { id }),
  /** An asset, under an address that changes with its content (`version`) so it can be cached for a year. */
  asset: (file: string, version: string) => `${pathOf(ROUTES.asset, {})}${file}?v=${version}`,
  placeSuggestions: () => pathOf(ROUTES.placeSuggestions, {}),
};

/** Where a pre-send checklist item leads: the field of the edit form, or the event page's venue list. */
export const checklistLink = (id: string, field: string): string =>
  field === 'venueRequests' ? href.event(id, 'venues') : href.editEvent(id, field);

/** A path inside the dashboard: `/app`, `/app?…` or `/app/x…`, never `//host` nor a backslash a browser reads as one. */
const INSIDE_DASHBOARD = new RegExp(`^${DASHBOARD_PATH}(/[^/\\\\]|$|\\?)`);

/** Where sign-in may lead: a page of the dashboard itself, never another site; anything else is the event list. */
export function safeNext(next: string): string {
  return INSIDE_DASHBOARD.test(next) && !next.includes('\\') ? next : href.events();
}
