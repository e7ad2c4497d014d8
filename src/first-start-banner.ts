/**
 * What a person at a terminal reads on the first start: the demo key, a request to try, where the
 * reference and the dashboard are. Printed beside the JSON lines (which stay for log collectors), only
 * when standard output is a terminal.
 */
import { href } from './web/href.js';

export interface FirstStart {
  address: string;
  key: string;
  inviteUrl: string;
  approverInviteUrl: string;
}

export function firstStartBanner(start: FirstStart): string {
  return [
    '',
    '  eventplan is running on an empty database: it created a demo organization.',
    '',
    `  API key:      ${start.key}   (shown only now: keep it)`,
    `  Try it:       curl -H "x-api-key: ${start.key}" ${start.address}/v1/events`,
    `  Reference:    ${start.address}/docs`,
    `  Dashboard:    open ${start.inviteUrl}`,
    `                to choose the demo planner's password, then sign in at ${start.address}${href.events()}`,
    `  Approver:     ${start.approverInviteUrl}`,
    '  Venues:       the demo organization has a few venues: shortlist them on an event and send it;',
    "                each venue's mail, with the link where it answers, is in `npx eventplan mail list`",
    '',
    '',
  ].join('\n');
}
