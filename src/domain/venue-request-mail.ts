/**
 * The mails a venue receives about a request for proposals (D21, D24, D25): the request itself with
 * its link, and each closing step (withdrawn, awarded, declined, no response). Composed like every
 * mail (mail-content.ts): a text part and an escaped HTML part, names and subjects on one line, the
 * planner as reply-to so the venue's answers reach a person.
 */
import { type ComposedMail, type MailAddress, mailAddressProblem } from './mail.js';
import { composeMail, type MailFact } from './mail-content.js';
import type { ChangeInWords } from './request-versions.js';
import type { DateRange } from './types.js';
import type { VenueSummary } from './venue.js';
import { DECLINE_REASON_LABELS, type Decision, type VenueRequest } from './venue-request.js';

/** Who the mail speaks for and of: the organization, its planner, the event and the venue. */
export interface VenueMailContext {
  organizationName: string;
  /** The event's planner (its creator): named in the mail and its reply-to. Null when unknown. */
  planner: { name: string | null; email: string } | null;
  event: { name: string; eventDates: readonly DateRange[] };
  venue: VenueSummary;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2027-05-12` → `12 May 2027`. */
export function mailDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${Number(day)} ${MONTHS[Number(month) - 1]} ${year}`;
}

/** The event's dates in words: each range as `12 May 2027 – 14 May 2027` (a single day once). */
export function mailDates(ranges: readonly DateRange[]): string {
  if (ranges.length === 0) return 'to be decided';
  return ranges
    .map((range) =>
      range.startDate === range.endDate
        ? mailDate(range.startDate)
        : `${mailDate(range.startDate)} – ${mailDate(range.endDate)}`,
    )
    .join(', ');
}

function plannerLine(planner: VenueMailContext['planner']): string | undefined {
  if (!planner) return undefined;
  return planner.name ? `${planner.name} <${planner.email}>` : planner.email;
}

/** The planner as reply-to, when their address can carry mail; otherwise no reply-to at all. */
function replyTo(planner: VenueMailContext['planner']): MailAddress | null {
  if (!planner || mailAddressProblem(planner.email)) return null;
  return { address: planner.email, name: planner.name };
}

function eventFacts(context: VenueMailContext): MailFact[] {
  const facts: MailFact[] = [
    { label: 'Event', value: context.event.name },
    { label: 'Dates', value: mailDates(context.event.eventDates) },
    { label: 'Organization', value: context.organizationName },
  ];
  const planner = plannerLine(context.planner);
  if (planner) facts.push({ label: 'Planner', value: planner });
  return facts;
}

function decisionFacts(decision: Decision | null): MailFact[] {
  const facts: MailFact[] = [];
  if (decision?.reason) facts.push({ label: 'Reason', value: DECLINE_REASON_LABELS[decision.reason] });
  if (decision?.comment) facts.push({ label: 'Comment', value: decision.comment });
  return facts;
}

const QUESTIONS = 'Questions? Reply to this message: it reaches the planner.';

/** The closing lines of a mail that carries the venue's link: the link is the venue's alone. */
const linkClosing = (venue: VenueSummary): string[] => [
  `The link is for ${venue.name} alone: anyone who has it can answer on your behalf, so do not pass it on.`,
  QUESTIONS,
];

/**
 * The request for proposals (D21): who asks, for what event and dates, by when, and the venue's link
 * `url` (`{PUBLIC_BASE_URL}/rfp/{token}`), which works without an account.
 */
export function requestSentMail(
  context: VenueMailContext,
  request: Pick<VenueRequest, 'responseDueDate'>,
  url: string,
): ComposedMail {
  const { organizationName, event, venue } = context;
  const facts = eventFacts(context);
  if (request.responseDueDate) {
    facts.push({ label: 'Please answer by', value: mailDate(request.responseDueDate) });
  }
  return composeMail({
    to: { address: venue.email, name: venue.name },
    replyTo: replyTo(context.planner),
    content: {
      subject: `Request for proposal: ${event.name} (${organizationName})`,
      greeting: `Hello ${venue.name},`,
      paragraphs: [
        `${organizationName} is planning ${event.name} and asks ${venue.name} for a proposal.`,
        'The request (dates, guest rooms, meeting space, agenda and requirements) is on the page below. There you can send a proposal, revise it later, or turn the request down. No account is needed.',
      ],
      facts,
      action: { label: 'Open the request', url },
      closing: [...linkClosing(venue)],
    },
  });
}

/** The request was withdrawn (D21), by the planner or because the event was cancelled (D24). */
export function requestWithdrawnMail(context: VenueMailContext, eventCancelled: boolean): ComposedMail {
  const { organizationName, event, venue } = context;
  return composeMail({
    to: { address: venue.email, name: venue.name },
    replyTo: replyTo(context.planner),
    content: {
      subject: `Request withdrawn: ${event.name} (${organizationName})`,
      greeting: `Hello ${venue.name},`,
      paragraphs: [
        eventCancelled
          ? `${organizationName} has cancelled ${event.name}, so its request for a proposal from ${venue.name} is withdrawn.`
          : `${organizationName} has withdrawn its request for a proposal from ${venue.name} for ${event.name}.`,
        'No answer is needed. The link you received no longer accepts proposals.',
      ],
      facts: eventFacts(context),
      closing: [QUESTIONS],
    },
  });
}

/** The venue's proposal was chosen (D24). */
export function requestAwardedMail(context: VenueMailContext, decision: Decision | null): ComposedMail {
  const { organizationName, event, venue } = context;
  const planner = context.planner?.name ?? 'The planner';
  return composeMail({
    to: { address: venue.email, name: venue.name },
    replyTo: replyTo(context.planner),
    content: {
      subject: `Proposal accepted: ${event.name} (${organizationName})`,
      greeting: `Hello ${venue.name},`,
      paragraphs: [
        `${organizationName} has chosen the proposal of ${venue.name} for ${event.name}.`,
        `${planner} will be in touch to confirm the booking.`,
      ],
      facts: [...eventFacts(context), ...decisionFacts(decision)],
      closing: [QUESTIONS],
    },
  });
}

/** The venue's proposal was declined (D24), with the reason in words (another venue chosen, among them). */
export function requestDeclinedMail(context: VenueMailContext, decision: Decision | null): ComposedMail {
  const { organizationName, event, venue } = context;
  return composeMail({
    to: { address: venue.email, name: venue.name },
    replyTo: replyTo(context.planner),
    content: {
      subject: `Proposal declined: ${event.name} (${organizationName})`,
      greeting: `Hello ${venue.name},`,
      paragraphs: [
        `${organizationName} has declined the proposal of ${venue.name} for ${event.name}. Thank you for the time you gave it.`,
      ],
      facts: [...eventFacts(context), ...decisionFacts(decision)],
      closing: [QUESTIONS],
    },
  });
}

/** Another venue was awarded before this one answered (D24): the request is closed. */
export function requestNoResponseMail(context: VenueMailContext): ComposedMail {
  const { organizationName, event, venue } = context;
  return composeMail({
    to: { address: venue.email, name: venue.name },
    replyTo: replyTo(context.planner),
    content: {
      subject: `Request closed: ${event.name} (${organizationName})`,
      greeting: `Hello ${venue.name},`,
      paragraphs: [
        `${organizationName} has chosen another venue for ${event.name}, so its request for a proposal from ${venue.name} is closed.`,
        'No answer is needed. The link you received no longer accepts proposals.',
      ],
      facts: eventFacts(context),
      closing: [QUESTIONS],
    },
  });
}

/**
 * The reminder (D28): the reply date is near and the venue has not answered. With the venue's link
 * `url` when one is given; without it, the venue is pointed to the request's mail, which carries it.
 */
export function requestReminderMail(
  context: VenueMailContext,
  request: Pick<VenueRequest, 'responseDueDate' | 'sentAt'>,
  url?: string,
): ComposedMail {
  const { organizationName, event, venue } = context;
  const due = request.responseDueDate ? mailDate(request.responseDueDate) : 'soon';
  const facts = eventFacts(context);
  if (request.responseDueDate) facts.push({ label: 'Please answer by', value: due });
  const where = url
    ? 'The request is on the page below, where you can send a proposal or turn the request down.'
    : `The request is on the page whose link came in our mail${request.sentAt ? ` of ${mailDate(request.sentAt.slice(0, 10))}` : ''} ("Request for proposal: ${event.name}"); there you can send a proposal or turn the request down.`;
  return composeMail({
    to: { address: venue.email, name: venue.name },
    replyTo: replyTo(context.planner),
    content: {
      subject: `Reminder: proposal due ${due}: ${event.name} (${organizationName})`,
      greeting: `Hello ${venue.name},`,
      paragraphs: [
        `${organizationName} is still waiting for an answer from ${venue.name} for ${event.name}, due by ${due}.`,
        where,
      ],
      facts,
      ...(url ? { action: { label: 'Open the request', url } } : {}),
      closing: [QUESTIONS],
    },
  });
}

/**
 * The reply date moved (D28): the new date, the one it replaces, and the venue's link `url`. Sent to
 * an open request only; a venue that already proposed is told it may still revise.
 */
export function replyDateMovedMail(
  context: VenueMailContext,
  request: Pick<VenueRequest, 'responseDueDate' | 'status'>,
  previous: string | null,
  url: string,
): ComposedMail {
  const { organizationName, event, venue } = context;
  const due = mailDate(request.responseDueDate!);
  const facts = eventFacts(context);
  facts.push({ label: 'Please answer by', value: due });
  if (previous) facts.push({ label: 'Instead of', value: mailDate(previous) });
  return composeMail({
    to: { address: venue.email, name: venue.name },
    replyTo: replyTo(context.planner),
    content: {
      subject: `New reply date ${due}: ${event.name} (${organizationName})`,
      greeting: `Hello ${venue.name},`,
      paragraphs: [
        previous
          ? `${organizationName} has moved the reply date of its request for ${event.name} from ${mailDate(previous)} to ${due}.`
          : `${organizationName} asks for an answer to its request for ${event.name} by ${due}.`,
        request.status === 'proposed'
          ? 'Your proposal stays as it is; you may revise it on the page below until then.'
          : 'The request is on the page below, where you can send a proposal or turn the request down.',
      ],
      facts,
      action: { label: 'Open the request', url },
      closing: [...linkClosing(venue)],
    },
  });
}

/**
 * An answer to a venue's question (D27): the question and the answer as text, and the venue's link
 * `url`. To the asker it is "your question"; to the other venues of an answer shared with all, the
 * question is shown without naming who asked.
 */
export function questionAnsweredMail(
  context: VenueMailContext,
  answered: { question: string; answer: string; own: boolean },
  url: string,
): ComposedMail {
  const { organizationName, event, venue } = context;
  return composeMail({
    to: { address: venue.email, name: venue.name },
    replyTo: replyTo(context.planner),
    content: {
      subject: `Answer to a question: ${event.name}`,
      greeting: `Hello ${venue.name},`,
      paragraphs: [
        answered.own
          ? `${organizationName} answered your question about its request for ${event.name}.`
          : `${organizationName} answered a question a venue asked about its request for ${event.name}, for every venue asked.`,
        `Question:\n${answered.question}`,
        `Answer:\n${answered.answer}`,
        'Every answer is on the page below, with the request.',
      ],
      facts: eventFacts(context),
      action: { label: 'Open the request', url },
      closing: [...linkClosing(venue)],
    },
  });
}

/** What a request for a revision tells (D26): the proposal, the versions, what changed, the planner's message. */
export interface RevisionNotice {
  proposalRevision: number;
  answeredVersion: number;
  latestVersion: number;
  /** What venues read that changed from the answered version to the latest. */
  changes: readonly ChangeInWords[];
  message: string | null;
}

/**
 * The planner asks the venue to revise its proposal (D26): which version it answered, what changed
 * since (each change before → after), the planner's message as text, and the venue's link `url`.
 */
export function revisionRequestedMail(
  context: VenueMailContext,
  notice: RevisionNotice,
  url: string,
): ComposedMail {
  const { organizationName, event, venue } = context;
  const shown = notice.changes.slice(0, 40);
  const more = notice.changes.length - shown.length;
  const paragraphs = [
    notice.answeredVersion < notice.latestVersion
      ? `${organizationName} asks ${venue.name} to revise its proposal for ${event.name}: it answers version ${notice.answeredVersion} of the request, which is now at version ${notice.latestVersion}.`
      : `${organizationName} asks ${venue.name} to revise its proposal for ${event.name} (revision ${notice.proposalRevision}).`,
  ];
  if (shown.length > 0) {
    paragraphs.push(
      [
        'What changed since:',
        ...shown.map((change) => `- ${change.label}: ${change.before} → ${change.after}`),
        ...(more > 0 ? [`- and ${more} more ${more === 1 ? 'change' : 'changes'}, on the page`] : []),
      ].join('\n'),
    );
  }
  if (notice.message) paragraphs.push(`Message from the planner:\n${notice.message}`);
  paragraphs.push('On the page below you can send a revised proposal; the one you sent stays until then.');
  return composeMail({
    to: { address: venue.email, name: venue.name },
    replyTo: replyTo(context.planner),
    content: {
      subject: `Please revise your proposal: ${event.name}`,
      greeting: `Hello ${venue.name},`,
      paragraphs,
      facts: eventFacts(context),
      action: { label: 'Open the request', url },
      closing: [...linkClosing(venue)],
    },
  });
}

/** What a version's mail tells (D26): its number, each change in words, and the planner's message. */
export interface VersionNotice {
  version: number;
  changes: readonly ChangeInWords[];
  message: string | null;
}

/** Changes in a mail: at most this many lines, the rest counted (the page shows them all). */
const CHANGES_IN_MAIL = 40;

/**
 * A new version of the request (D26): each change in words, before → after, the planner's message
 * (text, never markup, and never in a header), and the venue's link `url`.
 */
export function requestUpdatedMail(
  context: VenueMailContext,
  notice: VersionNotice,
  url: string,
): ComposedMail {
  const { organizationName, event, venue } = context;
  const shown = notice.changes.slice(0, CHANGES_IN_MAIL);
  const more = notice.changes.length - shown.length;
  const paragraphs = [
    notice.changes.length > 0
      ? `${organizationName} has updated its request for ${event.name} (version ${notice.version}). What changed:`
      : `${organizationName} has sent a note about its request for ${event.name} (version ${notice.version}); the requirements are unchanged.`,
  ];
  if (shown.length > 0) {
    paragraphs.push(
      [
        ...shown.map((change) => `- ${change.label}: ${change.before} → ${change.after}`),
        ...(more > 0 ? [`- and ${more} more ${more === 1 ? 'change' : 'changes'}, on the page`] : []),
      ].join('\n'),
    );
  }
  if (notice.message) paragraphs.push(`Message from the planner:\n${notice.message}`);
  paragraphs.push(
    'The page below shows the request as it is now and what changed. A proposal you already sent stays; you may revise it there.',
  );
  return composeMail({
    to: { address: venue.email, name: venue.name },
    replyTo: replyTo(context.planner),
    content: {
      subject: `Updated request: ${event.name}`,
      greeting: `Hello ${venue.name},`,
      paragraphs,
      facts: eventFacts(context),
      action: { label: 'Open the request', url },
      closing: [...linkClosing(venue)],
    },
  });
}

/**
 * The mail a step tells its venue of, by the status the request is in after it: `sent` needs the
 * link `url`; `withdrawn` says whether the event was cancelled. Undefined for a status no mail is
 * written for.
 */
export function venueStepMail(
  context: VenueMailContext,
  request: VenueRequest,
  options: { url?: string; eventCancelled?: boolean },
): ComposedMail | undefined {
  switch (request.status) {
    case 'sent':
      if (options.url === undefined) throw new Error('a request is sent with its link');
      return requestSentMail(context, request, options.url);
    case 'withdrawn':
      return requestWithdrawnMail(context, options.eventCancelled ?? false);
    case 'awarded':
      return requestAwardedMail(context, request.decision);
    case 'declined':
      return requestDeclinedMail(context, request.decision);
    case 'no_response':
      return requestNoResponseMail(context);
    default:
      return undefined;
  }
}
