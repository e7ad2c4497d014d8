/**
 * The dashboard pages a mail links to, as paths under the dashboard: the use cases build mail links
 * from these (PUBLIC_BASE_URL + path) without knowing the dashboard, and the dashboard's own address
 * book (src/web/href.ts) registers its pages under the same patterns, so a mailed link always leads
 * to the page that shows it.
 */

/** Where the dashboard is mounted. */
export const DASHBOARD_PATH = '/app';

/** The patterns of the pages mails link to, relative to the dashboard (Fastify's syntax). */
export const MAILED_PAGES = {
  event: '/events/:id',
  proposals: '/events/:id/proposals',
  account: '/account',
} as const;

const segment = (value: string) => encodeURIComponent(value);

/** The paths of the pages mails link to, each value encoded so that it stays in its own segment. */
export const dashboardPath = {
  event: (eventId: string) => `${DASHBOARD_PATH}/events/${segment(eventId)}`,
  /** The event's Proposals tab (D24): its proposals side by side and the requests turned down. */
  proposals: (eventId: string) => `${DASHBOARD_PATH}/events/${segment(eventId)}/proposals`,
  /** The person's account page, where they switch their notifications off. */
  account: () => `${DASHBOARD_PATH}/account`,
};
