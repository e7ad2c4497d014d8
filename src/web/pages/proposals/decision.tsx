/**
 * The confirmation pages of D24's decision: award one proposal (saying, before it is done, what it will
 * do to the event and to every other request) and decline one with a reason. Each form carries the
 * version of the event's sourcing it was read at: a page gone stale writes nothing and says so.
 */
import type { RequestDocument } from '../../../app/sourcing.js';
import { AWARD_EFFECT_ON_OTHERS } from '../../../domain/award.js';
import type { EventStatus } from '../../../domain/types.js';
import { DECLINE_REASONS, type RequestStatus } from '../../../domain/venue-request.js';
import { day, money } from '../../format.js';
import { type FormProblem, fieldId, problemsByField } from '../../forms.js';
import { href } from '../../href.js';
import {
  CsrfField,
  ErrorAlert,
  ErrorSummary,
  ErrorText,
  type Frame,
  Layout,
  TextArea,
} from '../../layout.js';
import { declineReasonLabel, requestStatusLabel, statusLabel } from '../../words.js';

export type DecisionKind = 'award' | 'decline';

export interface DecisionModel {
  kind: DecisionKind;
  eventId: string;
  eventName: string;
  eventStatus: EventStatus;
  request: RequestDocument;
  /** Every other request of the event, oldest first. */
  others: RequestDocument[];
  /** The version of the event's sourcing this page was read at. */
  version: string;
  /** Why the decision cannot be made now (expired, already decided, the event booked); no form then. */
  blocked?: string;
  reason: string;
  comment: string;
  problems: FormProblem[];
  /** The event or its requests changed since the form was read: nothing was written. */
  stale: boolean;
  /** Why the decision was refused when posted (another award came first, the proposal expired). */
  refusal?: string;
}

const LABELS: Record<string, string> = { reason: 'Reason', comment: 'Comment' };

/** "Hotel A", "Hotel A and Hotel B", "Hotel A, Hotel B and Hotel C". */
function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The other requests an award changes, grouped by what it does to them. */
function othersBy(others: readonly RequestDocument[], to: RequestStatus): string[] {
  return others
    .filter((other) => AWARD_EFFECT_ON_OTHERS[other.status]?.to === to)
    .map((other) => other.venue.name);
}

/** What the award will do, said before it is done. */
function AwardConsequences(props: { model: DecisionModel }) {
  const { model } = props;
  const declined = othersBy(model.others, 'declined');
  const unanswered = othersBy(model.others, 'no_response');
  const unasked = othersBy(model.others, 'withdrawn');
  const proposal = model.request.proposal;
  return (
    <section class="consequences" aria-labelledby="consequences-title">
      <h2 id="consequences-title">What awarding does</h2>
      <ul>
        <li>
          {model.request.venue.name} is awarded the event
          {proposal ? `, on its proposal of ${money(proposal.totals.total, proposal.currency)}` : ''}.
        </li>
        <li>
          {model.eventName} becomes <strong>{statusLabel('booked')}</strong>: no more venues can be asked.
        </li>
        {declined.length > 0 && (
          <li>
            The other {declined.length === 1 ? 'proposal is' : `${declined.length} proposals are`} declined as
            “{declineReasonLabel('selected_other_venue')}”: {listOf(declined)}.
          </li>
        )}
        {unanswered.length > 0 && (
          <li>
            {unanswered.length === 1 ? 'The request' : `The ${unanswered.length} requests`} still unanswered{' '}
            {unanswered.length === 1 ? 'is' : 'are'} closed as “{requestStatusLabel('no_response')}”:{' '}
            {listOf(unanswered)}.
          </li>
        )}
        {unasked.length > 0 && (
          <li>
            Venues on the shortlist that were never asked are taken off it, without a mail: {listOf(unasked)}.
          </li>
        )}
        <li>
          Every venue asked is told by mail: {model.request.venue.name} that it is chosen
          {declined.length + unanswered.length > 0 ? ', the others that another venue was' : ''}.
        </li>
      </ul>
    </section>
  );
}

function ReasonChoice(props: { value: string; errors: ReadonlyMap<string, string[]> }) {
  const id = fieldId('reason');
  const messages = props.errors.get('reason');
  const invalid = Boolean(messages?.length);
  return (
    <fieldset
      id={id}
      class={invalid ? 'field invalid' : 'field'}
      aria-describedby={invalid ? `${id}-error` : undefined}
    >
      <legend>Reason</legend>
      <ErrorText id={id} messages={messages} />
      <ul class="plain choices">
        {DECLINE_REASONS.map((reason) => (
          <li>
            <label class="checkbox">
              <input type="radio" name="reason" value={reason} checked={props.value === reason} />
              {declineReasonLabel(reason)}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

export function DecisionPage(props: { frame: Frame; model: DecisionModel }) {
  const { model } = props;
  const venue = model.request.venue.name;
  const award = model.kind === 'award';
  const title = `${award ? 'Award' : 'Decline'} ${venue}: ${model.eventName}`;
  const errors = problemsByField(model.problems);
  const proposal = model.request.proposal;
  // A refused post (another award came first, the proposal expired) leaves nothing to confirm.
  const closed = model.blocked !== undefined || model.refusal !== undefined;
  const action = award
    ? href.awardProposal(model.eventId, model.request.id)
    : href.declineProposal(model.eventId, model.request.id);
  return (
    <Layout frame={props.frame} title={title}>
      <h1>{title}</h1>
      {model.stale && (
        <ErrorAlert>
          <h2>Nothing was {award ? 'awarded' : 'declined'}: the proposals changed meanwhile</h2>
          <p>
            Since you opened this page, someone changed the event, a request or a proposal. Here is where
            things stand now; check them, then {award ? 'award' : 'decline'} again if you still want to.
          </p>
        </ErrorAlert>
      )}
      {model.refusal && (
        <ErrorAlert>
          <h2>Nothing was {award ? 'awarded' : 'declined'}</h2>
          <p>{model.refusal}</p>
        </ErrorAlert>
      )}
      <ErrorSummary problems={model.problems} labels={(name) => LABELS[name] ?? 'This field'} />
      <p>
        The event is <strong>{statusLabel(model.eventStatus)}</strong>. {venue}’s request is{' '}
        <strong>{requestStatusLabel(model.request.status)}</strong>
        {proposal ? `; its proposal is valid until ${day(proposal.validUntil)}` : ''}.
      </p>
      {model.blocked ? (
        <div class="error-summary">
          <p>{model.blocked}</p>
        </div>
      ) : closed ? null : award ? (
        <AwardConsequences model={model} />
      ) : (
        <p>
          This declines the proposal of {venue}. The venue is told by mail, with your reason and comment. The
          event and the other requests stay as they are.
        </p>
      )}
      {!closed && (
        <form method="post" action={action} novalidate>
          <CsrfField token={props.frame.csrf} />
          <input type="hidden" name="version" value={model.version} />
          {!award && <ReasonChoice value={model.reason} errors={errors} />}
          <TextArea
            name="comment"
            label={award ? 'Comment (optional)' : 'Comment'}
            hint={
              award
                ? `Kept in the event's history and sent to ${venue} with the news.`
                : `Needed when the reason is “${declineReasonLabel('other')}”. Sent to ${venue} and kept in the event's history.`
            }
            value={model.comment}
            errors={errors}
          />
          <div class="form-actions">
            <button type="submit" class={award ? 'primary' : 'danger'}>
              {award ? `Award ${venue}` : 'Decline proposal'}
            </button>
            <a href={href.proposals(model.eventId)}>Back to the proposals</a>
          </div>
        </form>
      )}
      {closed && (
        <p>
          <a href={href.proposals(model.eventId)}>Back to the proposals</a>
        </p>
      )}
    </Layout>
  );
}
