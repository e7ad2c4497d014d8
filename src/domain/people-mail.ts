/**
 * The mails that tell the people of an event what waits for them (D24), through the outbox (D25):
 * approval requested (to the event's approvers), returned to draft or approved (to its creator), a
 * proposal submitted or revised and a venue turning down (to everyone granted on the event). Never
 * to the person who made the change, never to a deactivated person, never of a kind the person
 * switched off; each with a link to the page that needs them and a line saying how to switch it off.
 * Pure: the use case reads who is granted before the write and passes it in.
 */
import type { StatusChangeData } from './changes.js';
import { dashboardPath } from './dashboard-paths.js';
import { type ComposedMail, mailAddressProblem } from './mail.js';
import { composeMail, type MailAction, type MailFact } from './mail-content.js';
import { NOTIFICATION_LABELS, type NotificationKind } from './notifications.js';
import type { Proposal } from './proposal.js';
import { proposalTotals } from './proposal-figures.js';
import type { VenueQuestion } from './questions.js';
import type { EventDetails, StoredEvent } from './types.js';
import { type RequestStep, TURN_DOWN_REASON_LABELS, type VenueRequest } from './venue-request.js';
import { mailDate, mailDates } from './venue-request-mail.js';

/** One person granted on the event, as read before the write. */
export interface Recipient {
  userId: string;
  email: string;
  name: string | null;
  active: boolean;
  /** The kinds of notification the person switched off on their account page. */
  switchedOff: readonly NotificationKind[];
}

/** Who may be told of a change of the event, and who made it. */
export interface PeopleAudience {
  /** Everyone granted on the event (its creator among them), within the event's organization. */
  granted: readonly Recipient[];
  /** The person who made the change (never told of it), or null for the operator and a venue. */
  actorUserId: string | null;
  /** The change's author in words (a person's name); null when the mail names no one (the operator). */
  actorName: string | null;
  /** PUBLIC_BASE_URL: links are this plus a dashboard path. */
  publicBaseUrl: string;
}

/** What a change made that people may be told of. */
export interface ChangeToTell {
  event: Pick<StoredEvent, 'createdBy'> & { details: Pick<EventDetails, 'id' | 'name' | 'eventDates'> };
  /** A status move's data: where from, where to, and the comment given. */
  status?: StatusChangeData;
  steps?: readonly RequestStep[];
  proposals?: readonly Proposal[];
  /** A venue's question just asked (D27), with the venue's name. */
  asked?: { question: VenueQuestion; venueName: string };
}

/** What one mail says, before it is addressed to each recipient. */
interface Notice {
  kind: NotificationKind;
  subject: string;
  paragraphs: string[];
  facts: MailFact[];
  action: MailAction;
}

const amount = (currency: string, value: number) =>
  `${currency} ${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function eventFacts(change: ChangeToTell): MailFact[] {
  return [
    { label: 'Event', value: change.event.details.name },
    { label: 'Dates', value: mailDates(change.event.details.eventDates) },
  ];
}

/** The notices of a status move (D16): approval asked of the approvers, its answer to the creator. */
function statusNotices(
  change: ChangeToTell,
  audience: PeopleAudience,
): Array<Notice & { to: 'approvers' | 'creator' }> {
  const status = change.status;
  if (!status || status.from === status.to) return [];
  const { name, id } = change.event.details;
  const who = audience.actorName;
  const eventLink = { label: 'Open the event', url: `${audience.publicBaseUrl}${dashboardPath.event(id)}` };
  if (status.from === 'draft' && status.to === 'pending_approval') {
    return [
      {
        to: 'approvers',
        kind: 'approval_requested',
        subject: `Approval requested: ${name}`,
        paragraphs: [
          who ? `${who} asks you to approve ${name}.` : `${name} is waiting for your approval.`,
          'Open the event to check it, then approve it (the venues on its shortlist are sent the request) or return it to draft with a comment.',
        ],
        facts: [...eventFacts(change), ...(who ? [{ label: 'Asked by', value: who }] : [])],
        action: eventLink,
      },
    ];
  }
  if (status.from === 'pending_approval' && status.to === 'draft') {
    return [
      {
        to: 'creator',
        kind: 'approval_answered',
        subject: `Returned to draft: ${name}`,
        paragraphs: [
          who
            ? `${who} returned ${name} to draft instead of approving it.`
            : `${name} was returned to draft.`,
          'Open the event to see the comment, change what it asks, and request approval again.',
        ],
        facts: [
          ...eventFacts(change),
          ...(who ? [{ label: 'Returned by', value: who }] : []),
          ...(status.comment ? [{ label: 'Comment', value: status.comment }] : []),
        ],
        action: eventLink,
      },
    ];
  }
  if (status.from === 'pending_approval' && status.to === 'wait_for_proposals') {
    return [
      {
        to: 'creator',
        kind: 'approval_answered',
        subject: `Approved: ${name}`,
        paragraphs: [
          who ? `${who} approved ${name}.` : `${name} was approved.`,
          'The venues on its shortlist have been sent the request for proposals. You will hear here when they answer.',
        ],
        facts: [...eventFacts(change), ...(who ? [{ label: 'Approved by', value: who }] : [])],
        action: eventLink,
      },
    ];
  }
  return [];
}

/** The notices of the requests' steps (D22, D23): a proposal submitted or revised, a venue turning down. */
function requestNotices(change: ChangeToTell, audience: PeopleAudience): Notice[] {
  const { name, id } = change.event.details;
  const proposalsLink = {
    label: 'Compare the proposals',
    url: `${audience.publicBaseUrl}${dashboardPath.proposals(id)}`,
  };
  const notices: Notice[] = [];
  for (const step of change.steps ?? []) {
    const request: VenueRequest | null = step.after;
    if (!request) continue;
    const venue = request.venue.name;
    const proposal = (change.proposals ?? []).find((one) => one.requestId === request.id);
    if (proposal) {
      const revised = proposal.revision > 1;
      const byPlanner = proposal.submittedBy === 'planner';
      const sent = revised ? `revised its proposal (revision ${proposal.revision})` : 'sent a proposal';
      const entered = revised ? 'entered a revised proposal' : 'entered a proposal';
      notices.push({
        kind: 'proposal_received',
        subject: `${revised ? 'Proposal revised' : 'Proposal received'}: ${venue} for ${name}`,
        paragraphs: [
          byPlanner && audience.actorName
            ? `${audience.actorName} ${entered} from ${venue} for ${name}.`
            : `${venue} ${sent} for ${name}.`,
          'Compare it with the other proposals and the budget on the event’s Proposals tab.',
        ],
        facts: [
          ...eventFacts(change),
          { label: 'Venue', value: venue },
          { label: 'Total', value: amount(proposal.currency, proposalTotals(proposal).total) },
          { label: 'Valid until', value: mailDate(proposal.validUntil) },
        ],
        action: proposalsLink,
      });
    } else if (request.status === 'turned_down' && step.before?.status !== 'turned_down') {
      const turnDown = request.turnDown;
      notices.push({
        kind: 'venue_turned_down',
        subject: `Turned down: ${venue} for ${name}`,
        paragraphs: [`${venue} turned down the request for a proposal for ${name}.`],
        facts: [
          ...eventFacts(change),
          { label: 'Venue', value: venue },
          ...(turnDown ? [{ label: 'Reason', value: TURN_DOWN_REASON_LABELS[turnDown.reason] }] : []),
          ...(turnDown?.comment ? [{ label: 'Comment', value: turnDown.comment }] : []),
        ],
        action: proposalsLink,
      });
    }
  }
  return notices;
}

/** A venue's question (D27), to everyone granted on the event: the question as text, and where to answer it. */
function questionNotice(
  change: ChangeToTell,
  asked: NonNullable<ChangeToTell['asked']>,
  audience: PeopleAudience,
): Notice {
  const { name, id } = change.event.details;
  return {
    kind: 'venue_question',
    subject: `Question from ${asked.venueName}: ${name}`,
    paragraphs: [
      `${asked.venueName} asked a question about the request for ${name}:`,
      asked.question.text,
      'Answer it on the event page: to every venue asked, without naming who asked, or to this venue alone.',
    ],
    facts: [...eventFacts(change), { label: 'Venue', value: asked.venueName }],
    action: {
      label: 'Answer the question',
      url: `${audience.publicBaseUrl}${dashboardPath.event(id)}#questions`,
    },
  };
}

/** Whether the person may be told of a change of this kind: granted, active, not its author, not switched off. */
function reaches(person: Recipient, kind: NotificationKind, audience: PeopleAudience): boolean {
  return (
    person.active &&
    person.userId !== audience.actorUserId &&
    !person.switchedOff.includes(kind) &&
    mailAddressProblem(person.email) === undefined
  );
}

function addressed(notice: Notice, person: Recipient, audience: PeopleAudience): ComposedMail {
  const { label } = NOTIFICATION_LABELS[notice.kind];
  return composeMail({
    to: { address: person.email, name: person.name },
    content: {
      subject: notice.subject,
      greeting: `Hello ${person.name ?? person.email},`,
      paragraphs: notice.paragraphs,
      facts: notice.facts,
      action: notice.action,
      optOut: {
        text: `You receive this because you are on this event. To stop mails about “${label}”, switch them off on your account page:`,
        url: `${audience.publicBaseUrl}${dashboardPath.account()}`,
      },
    },
  });
}

/**
 * The mails that tell people of `change` (D24), one per notice and person it reaches: approval
 * requested to the event's approvers (everyone granted but its creator), its answer to the creator,
 * proposals and turn-downs to everyone granted.
 */
export function peopleMails(change: ChangeToTell, audience: PeopleAudience): ComposedMail[] {
  const creatorId = change.event.createdBy;
  const mails: ComposedMail[] = [];
  const tell = (notice: Notice, people: readonly Recipient[]) => {
    for (const person of people) {
      if (reaches(person, notice.kind, audience)) mails.push(addressed(notice, person, audience));
    }
  };
  for (const notice of statusNotices(change, audience)) {
    const people = audience.granted.filter((person) =>
      notice.to === 'creator' ? person.userId === creatorId : person.userId !== creatorId,
    );
    tell(notice, people);
  }
  for (const notice of requestNotices(change, audience)) tell(notice, audience.granted);
  if (change.asked) tell(questionNotice(change, change.asked, audience), audience.granted);
  return mails;
}
