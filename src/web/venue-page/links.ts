/**
 * The addresses of the venue's page (D22): `/rfp/{token}` and its two forms. The token is the link's
 * password: it is in the path only here, never in a query, a log line (logging.ts) or an outbound link.
 */
import { venueLinkPath } from '../../app/sourcing.js';

/** Where the venue's pages are mounted; every pattern below is relative to it. */
export const VENUE_PAGE_PATH = '/rfp';

/** The route patterns (Fastify's syntax). */
export const VENUE_ROUTES = {
  request: '/:token',
  proposal: '/:token/proposal',
  turnDown: '/:token/turn-down',
  question: '/:token/question',
} as const;

const base = (token: string) => venueLinkPath(encodeURIComponent(token));

export const venueHref = {
  /** The request as the venue reads it; `notice` names the message after a change. */
  request: (token: string, notice?: VenueNotice) => `${base(token)}${notice ? `?notice=${notice}` : ''}`,
  /** The proposal form: a first proposal, or a revision prefilled from the latest one. */
  proposal: (token: string) => `${base(token)}/proposal`,
  turnDown: (token: string) => `${base(token)}/turn-down`,
  /** Where the question form posts (D27); the page shows the questions under `#questions`. */
  question: (token: string) => `${base(token)}/question`,
};

/** Messages after a change, named by code so a crafted link cannot make the page say anything else. */
export const VENUE_NOTICES = {
  'proposal-sent':
    'Your proposal is sent. The planner has it now; you can still revise it while the request is open.',
  'proposal-revised':
    'Your revised proposal is sent. The planner sees it as the latest; the earlier one is kept.',
  'turned-down': 'You turned this request down. The planner is told; nothing more is asked of you.',
  'question-asked':
    'Your question is sent to the planner. The answer comes by mail and shows here, under Questions and answers.',
} as const;

export type VenueNotice = keyof typeof VENUE_NOTICES;

export function venueNoticeOf(query: unknown): string | undefined {
  const code = (query as { notice?: unknown } | undefined)?.notice;
  return typeof code === 'string' && Object.hasOwn(VENUE_NOTICES, code)
    ? VENUE_NOTICES[code as VenueNotice]
    : undefined;
}
