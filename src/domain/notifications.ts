/**
 * The mails that tell people of what waits for them (D24), by kind: each kind is one switch on the
 * person's account page. Every kind is on until the person switches it off; what is stored is the
 * kinds switched off, so a kind added later reaches everyone until they say otherwise.
 */

export const NOTIFICATION_KINDS = [
  'approval_requested',
  'approval_answered',
  'proposal_received',
  'venue_turned_down',
  'venue_question',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export function isNotificationKind(value: string): value is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(value);
}

/** Each kind as its switch on the account page names it, and what it tells of. */
export const NOTIFICATION_LABELS: Record<NotificationKind, { label: string; hint: string }> = {
  approval_requested: {
    label: 'Approval requests',
    hint: 'When an event you approve is waiting for your approval.',
  },
  approval_answered: {
    label: 'Your events approved or returned',
    hint: 'When an approver approves an event you created, or returns it to draft.',
  },
  proposal_received: {
    label: 'Proposals received',
    hint: 'When a venue sends or revises a proposal for an event you are on.',
  },
  venue_turned_down: {
    label: 'Venues turning down',
    hint: 'When a venue turns down the request for an event you are on.',
  },
  venue_question: {
    label: 'Questions from venues',
    hint: 'When a venue asks a question about the request for an event you are on.',
  },
};

/** The kinds a person still receives, given those they switched off. */
export function receivedKinds(switchedOff: readonly NotificationKind[]): NotificationKind[] {
  return NOTIFICATION_KINDS.filter((kind) => !switchedOff.includes(kind));
}
