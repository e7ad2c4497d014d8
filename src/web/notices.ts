/**
 * Messages shown after a change (Post/Redirect/Get). The redirect names one by code, never by text,
 * so a crafted link cannot make the dashboard say something it did not.
 */
export const NOTICES = {
  'signed-out': 'You are signed out.',
  'password-set': 'Your password is set. Welcome.',
  'password-link-sent':
    'If an account uses that email, a link to choose a new password is on its way there. It works once, within an hour.',
  'password-changed': 'Your password is changed. Every other browser signed in as you is signed out.',
  'session-ended': 'That device is signed out.',
  'notifications-saved': 'Your mail settings are saved.',
  created: 'Event created.',
  duplicated: 'Event duplicated: this is the new draft copy.',
  saved: 'Saved.',
  'copy-undone': 'The copy is undone: the grid is as it was before it. Nothing was saved.',
  'nothing-changed': 'Nothing to save: the values were already so.',
  'session-added': 'Session added.',
  'session-saved': 'Session saved.',
  'session-removed': 'Session removed.',
  moved: 'Status changed.',
  'venue-added': 'Venue added to the directory.',
  'venue-saved': 'Venue saved.',
  'venue-archived': 'Venue archived: it is no longer offered for events.',
  'venue-shortlisted': 'Venue added to the shortlist. Nothing is sent until the event is sent to venues.',
  'venue-sent': 'Venue added, and the request sent to it by mail.',
  'shortlist-removed': 'Venue taken off the shortlist. It was never sent anything.',
  'request-withdrawn': 'Request withdrawn. The venue is told by mail.',
  'reply-date-moved': 'Reply date moved. A venue already asked is told by mail.',
  'reply-dates-moved': 'Reply dates moved. Each venue asked is told by mail.',
  'question-answered': 'Answer sent: each venue that sees it is told by mail.',
  'changes-sent': 'Changes sent: each venue still asked is told by mail and reads the request as it is now.',
  'saved-unsent':
    'Saved. Venues still read the request as it was sent: they see this change once you send the changes to them.',
  awarded:
    'Awarded: the event is booked, the other proposals are declined, unanswered requests are closed, and every venue is told by mail.',
  declined: 'Proposal declined: the venue is told by mail.',
  'revision-requested': 'Revision asked: the venue is told by mail, with what changed since its proposal.',
  'not-in-a-group':
    'Nothing was created: you are in no group, so a new event would be visible to no one, you included. Ask an operator to add you to a group.',
} as const;

export type NoticeCode = keyof typeof NOTICES;

export function noticeOf(query: unknown): string | undefined {
  const code = (query as { notice?: unknown } | undefined)?.notice;
  return typeof code === 'string' && code in NOTICES ? NOTICES[code as NoticeCode] : undefined;
}
