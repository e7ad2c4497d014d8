/**
 * The venue's page in markup (D22): the request as the venue may read it, its latest proposal, and the
 * proposal and turn-down forms. The dashboard's frame and styles, without its navigation: the venue
 * has no account. Everything a planner typed is text (Preact escapes it).
 */
import type { ComponentChildren } from 'preact';
import type { VenueRequestPage, VenueSession, VenueVersionView } from '../../app/venue-portal.js';
import { HOLD_OPTION_LABELS, HOLD_OPTIONS, PROPOSAL_FIELD_LABELS } from '../../domain/proposal.js';
import { COVERAGE_LABELS, TOTAL_PARTS, TOTALS_LABELS } from '../../domain/proposal-figures.js';
import { TURN_DOWN_REASON_LABELS, TURN_DOWN_REASONS } from '../../domain/venue-request.js';
import { count, dateRange, dateRanges, day, deadline, instant, money } from '../format.js';
import { type FormBody, type FormProblem, field, fieldId, problemsByField } from '../forms.js';
import {
  CsrfField,
  ErrorAlert,
  ErrorSummary,
  ErrorText,
  type Frame,
  Layout,
  TextArea,
  TextField,
} from '../layout.js';
import { RoomBlockTable } from '../room-block-table.js';
import { venueHref } from './links.js';
import { AMOUNT_CONTROLS, cancellationRows, PERCENT_CONTROLS, roomGrid } from './proposal-form.js';
import { closedWords, requestStateWords, venueControlLabel } from './words.js';

const text = (value: string | null | undefined) =>
  value === null || value === undefined || value === '' ? '—' : value;

function Definition(props: { term: string; children: ComponentChildren }) {
  return (
    <div class="definition">
      <dt>{props.term}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

function List(props: { items: readonly string[] }) {
  if (props.items.length === 0) return <>—</>;
  return (
    <ul class="plain">
      {props.items.map((item) => (
        <li>{item}</li>
      ))}
    </ul>
  );
}

/** The page's frame: the dashboard's, with the name in the header leading nowhere (the venue has no account). */
function VenueLayout(props: {
  frame: Frame;
  title: string;
  notice?: string | undefined;
  children: ComponentChildren;
}) {
  return (
    <Layout frame={props.frame} title={props.title} notice={props.notice} home={null}>
      {props.children}
    </Layout>
  );
}

/** Who asks, for what, by when: the head of every page of the request. */
function RequestHead(props: { page: VenueRequestPage; title: string }) {
  const { page } = props;
  const planner = page.planner;
  return (
    <>
      <h1>{props.title}</h1>
      <p class="lead">
        {page.organizationName} asks {page.venue.name} for a proposal for <strong>{page.event.name}</strong>.
      </p>
      <dl class="definitions">
        <Definition term="Planner">
          {planner ? (
            <>
              {planner.name ?? planner.email}
              {planner.name && (
                <>
                  {' · '}
                  <a href={`mailto:${planner.email}`} rel="noreferrer">
                    {planner.email}
                  </a>
                </>
              )}
            </>
          ) : (
            '—'
          )}
        </Definition>
        <Definition term="Your answer is due">
          {page.request.responseDueDate ? day(page.request.responseDueDate) : '—'}
        </Definition>
        <Definition term="Where this request stands">
          {page.open ? requestStateWords(page.request.status) : 'Closed'}
        </Definition>
      </dl>
    </>
  );
}

function ClosedBox(props: { page: VenueRequestPage }) {
  const { page } = props;
  const words = closedWords(page.request.status, page.open ? 'sourcing' : 'over');
  return (
    <section class="panel closed" aria-labelledby="closed-title">
      <h2 id="closed-title">This request is closed</h2>
      <p>{words}</p>
      <p>No proposal or answer can be sent on it any more.</p>
    </section>
  );
}

function RoomsRequested(props: { page: VenueRequestPage }) {
  return (
    <RoomBlockTable
      accommodations={props.page.event.accommodations}
      caption="Guest rooms requested per night"
      captionId="rooms-requested-caption"
      empty="No guest rooms requested."
      askedTypesOnly
    />
  );
}

/** The agenda day by day: each day's sessions in time order, with what each needs. */
function Agenda(props: { sessions: readonly VenueSession[] }) {
  const byDay = new Map<string, VenueSession[]>();
  for (const session of props.sessions) {
    for (const date of session.dates) byDay.set(date, [...(byDay.get(date) ?? []), session]);
  }
  const days = [...byDay.keys()].sort();
  if (days.length === 0) return <p class="empty">No sessions planned yet.</p>;
  return (
    <>
      {days.map((date) => (
        <section class="agenda-day" aria-labelledby={`day-${date}`}>
          <h4 id={`day-${date}`}>{day(date)}</h4>
          <ul class="sessions">
            {byDay
              .get(date)!
              .sort((a, b) => a.startTime.localeCompare(b.startTime))
              .map((session) => (
                <li>
                  <span class="time">
                    {session.startTime}–{session.endTime}
                  </span>{' '}
                  <strong>{session.title}</strong>
                  {session.roomType && <span> · {session.roomType}</span>}
                  {session.capacity > 0 && <span> · {count(session.capacity)} people</span>}
                  {(session.avRequirements.length > 0 || session.avOtherText) && (
                    <span>
                      {' '}
                      · AV: {[...session.avRequirements, session.avOtherText].filter(Boolean).join(', ')}
                    </span>
                  )}
                  {(session.fbRequirements.length > 0 || session.fbOtherText) && (
                    <span>
                      {' '}
                      · Food and beverage:{' '}
                      {[...session.fbRequirements, session.fbOtherText].filter(Boolean).join(', ')}
                    </span>
                  )}
                </li>
              ))}
          </ul>
        </section>
      ))}
    </>
  );
}

/** The event as D22 lets the venue read it: never the budget, the internal notes, the approvers or the other venues. */
function EventDetails(props: { page: VenueRequestPage }) {
  const { event } = props.page;
  // "Other" is said by its own words when the planner gave them.
  const decisionFactors = event.decisionFactorOtherText
    ? [...event.decisionFactors.filter((factor) => factor !== 'Other'), event.decisionFactorOtherText]
    : event.decisionFactors;
  return (
    <section aria-labelledby="event-title">
      <h2 id="event-title">The event</h2>
      <dl class="definitions">
        <Definition term="Event">{event.name}</Definition>
        <Definition term="Dates">{dateRanges(event.eventDates)}</Definition>
        <Definition term="Date flexibility">{text(event.flexibility)}</Definition>
        <Definition term="Candidate cities">
          <List items={event.cities} />
        </Definition>
        <Definition term="Attendees">{count(event.numPeople)}</Definition>
        <Definition term="Currency">{event.currency}</Definition>
      </dl>
      <h3>Guest rooms</h3>
      <RoomsRequested page={props.page} />
      <h3>Meeting rooms</h3>
      <dl class="definitions">
        <Definition term="Meeting-room dates">{dateRanges(event.meetingRoomDates)}</Definition>
        <Definition term="Meeting rooms needed">
          {event.numMeetingRoomsNeeded === null ? '—' : count(event.numMeetingRoomsNeeded)}
        </Definition>
        <Definition term="Meeting-room notes">{text(event.meetingRooms)}</Definition>
      </dl>
      <h3>Agenda</h3>
      <Agenda sessions={event.agenda} />
      <h3>Food, services and the decision</h3>
      <dl class="definitions">
        <Definition term="Food and beverage">{text(event.foodBeverageRequirements)}</Definition>
        <Definition term="Additional services">
          <List items={event.additionalServices} />
        </Definition>
        <Definition term="What the decision rests on">
          <List items={decisionFactors} />
        </Definition>
        <Definition term="Decision expected by">{deadline(event.decisionDeadline)}</Definition>
        <Definition term="Notes for you">{text(event.notesForVenue)}</Definition>
      </dl>
    </section>
  );
}

/** The changes of one version, each before → after, and the planner's message. */
function VersionChanges(props: { update: VenueVersionView }) {
  const { update } = props;
  return (
    <>
      {update.changes.length > 0 ? (
        <ul class="change-values">
          {update.changes.map((change) => (
            <li>
              {change.label}: <span class="before">{change.before}</span> <span aria-hidden="true">→</span>
              <span class="visually-hidden">changed to</span> <span class="after">{change.after}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p>The requirements did not change.</p>
      )}
      {update.message && (
        <blockquote class="version-message">Message from the planner: {update.message}</blockquote>
      )}
    </>
  );
}

/**
 * What changed since the request was first sent (D26): the latest version's changes and when, and the
 * earlier versions' behind a disclosure.
 */
function RequestUpdates(props: { page: VenueRequestPage }) {
  const [latest, ...earlier] = props.page.updates;
  if (!latest) return null;
  return (
    <section class="panel request-updates" aria-labelledby="updates-title">
      <h2 id="updates-title">
        Updated on {instant(latest.sentAt)} (version {latest.version})
      </h2>
      <p>The request below is the updated one. What changed:</p>
      <VersionChanges update={latest} />
      {earlier.length > 0 && (
        <details>
          <summary>Earlier changes ({count(earlier.length)})</summary>
          {earlier.map((update) => (
            <section>
              <h3>
                Version {update.version}, {instant(update.sentAt)}
              </h3>
              <VersionChanges update={update} />
            </section>
          ))}
        </details>
      )}
    </section>
  );
}

/** The venue's latest proposal as the planner received it: its terms and totals. */
function LatestProposal(props: { page: VenueRequestPage }) {
  const proposal = props.page.proposal;
  if (!proposal) return null;
  const { currency, totals, coverage } = proposal;
  const amount = (value: number | null) => (value === null ? '—' : money(value, currency));
  const percent = (value: number | null) => (value === null ? '—' : `${value}%`);
  return (
    <section aria-labelledby="proposal-title">
      <h2 id="proposal-title">Your proposal</h2>
      <p>
        Revision {proposal.revision}, sent {instant(proposal.submittedAt)}
        {proposal.submittedBy === 'planner' ? ' (entered by the planner for you)' : ''}.
      </p>
      <dl class="definitions">
        <Definition term={PROPOSAL_FIELD_LABELS.validUntil}>{day(proposal.validUntil)}</Definition>
        <Definition term={PROPOSAL_FIELD_LABELS.offeredDates}>
          {proposal.offeredDates ? dateRange(proposal.offeredDates) : '—'}
        </Definition>
        <Definition term={PROPOSAL_FIELD_LABELS.holdOption}>
          {HOLD_OPTION_LABELS[proposal.holdOption]}
        </Definition>
        <Definition term={COVERAGE_LABELS.percent}>
          {coverage.percent === null
            ? '—'
            : `${coverage.percent}% of the room nights requested (${count(coverage.coveredRoomNights)} of ${count(coverage.requestedRoomNights)})`}
        </Definition>
        {PERCENT_CONTROLS.map((name) => (
          <Definition term={PROPOSAL_FIELD_LABELS[name]}>{percent(proposal[name])}</Definition>
        ))}
        <Definition term={PROPOSAL_FIELD_LABELS.cutoffDate}>
          {proposal.cutoffDate ? day(proposal.cutoffDate) : '—'}
        </Definition>
        <Definition term={PROPOSAL_FIELD_LABELS.cancellation}>
          <List
            items={proposal.cancellation.map(
              (step) => `${step.percent}% when cancelled fewer than ${count(step.daysBefore)} days before`,
            )}
          />
        </Definition>
        <Definition term={PROPOSAL_FIELD_LABELS.notes}>{text(proposal.notes)}</Definition>
      </dl>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways on a phone, so the keyboard must reach it */}
      <section class="table-wrap" aria-labelledby="totals-caption" tabIndex={0}>
        <table class="budget">
          <caption id="totals-caption">Totals in {currency}</caption>
          <tbody>
            {TOTAL_PARTS.map((part) => (
              <tr>
                <th scope="row">{TOTALS_LABELS[part]}</th>
                <td class="number">{amount(totals[part])}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{TOTALS_LABELS.total}</th>
              <td class="number">{amount(totals.total)}</td>
            </tr>
          </tfoot>
        </table>
      </section>
    </section>
  );
}

/** The question form's state after a refused post: what was typed and why it was refused. */
export interface QuestionFormState {
  values: FormBody;
  problems: readonly FormProblem[];
}

/**
 * Questions and answers (D27): the venue's own questions, answered or not, and the answers the
 * planner shared with every venue (never saying who asked); while the request is open, the form to ask.
 */
function Questions(props: { page: VenueRequestPage; token: string; csrf: string; form?: QuestionFormState }) {
  const { page, token, form } = props;
  const errors = problemsByField(form?.problems ?? []);
  if (!page.open && page.questions.length === 0) return null;
  return (
    <section id="questions" aria-labelledby="questions-title">
      <h2 id="questions-title">Questions and answers</h2>
      {page.questions.length === 0 ? (
        <p class="empty">No question yet.</p>
      ) : (
        <ul class="plain questions">
          {page.questions.map((question) => (
            <li class="question">
              <p class="subtle">
                {question.own ? 'Your question' : 'A question from a venue'}, {instant(question.askedAt)}
              </p>
              <p class="quote">{question.text}</p>
              {question.answer ? (
                <>
                  <p class="subtle">
                    Answer from {page.organizationName}, {instant(question.answer.answeredAt)}
                  </p>
                  <p class="answer">{question.answer.text}</p>
                </>
              ) : (
                <p class="hint">Not answered yet.</p>
              )}
            </li>
          ))}
        </ul>
      )}
      {page.open && (
        <form method="post" action={venueHref.question(token)} novalidate>
          <CsrfField token={props.csrf} />
          <ErrorSummary problems={form?.problems ?? []} labels={() => 'Your question'} />
          <TextArea
            name="text"
            label="Your question"
            hint={`To ${page.organizationName}. At most 1,000 characters. If the answer is for every venue, it is shared without saying who asked.`}
            value={field(form?.values ?? {}, 'text')}
            errors={errors}
          />
          <div class="form-actions">
            <button type="submit">Ask the planner</button>
          </div>
        </form>
      )}
    </section>
  );
}

export function RequestPage(props: {
  frame: Frame;
  token: string;
  page: VenueRequestPage;
  notice?: string | undefined;
  question?: QuestionFormState;
}) {
  const { page, token } = props;
  return (
    <VenueLayout
      frame={props.frame}
      title={`Request for proposals: ${page.event.name}`}
      notice={props.notice}
    >
      <RequestHead page={page} title={`Request for proposals: ${page.event.name}`} />
      {page.open ? (
        <div class="actions venue-actions">
          <a class="button primary" href={venueHref.proposal(token)}>
            {page.proposal ? 'Revise your proposal' : 'Send a proposal'}
          </a>
          <a class="button" href={venueHref.turnDown(token)}>
            Turn this request down
          </a>
        </div>
      ) : (
        <ClosedBox page={page} />
      )}
      <RequestUpdates page={page} />
      <LatestProposal page={page} />
      <EventDetails page={page} />
      <Questions
        page={page}
        token={token}
        csrf={props.frame.csrf}
        {...(props.question ? { form: props.question } : {})}
      />
    </VenueLayout>
  );
}

/** A closed request answered to a form: the request's page, saying nothing was sent and why. */
export function RefusedPage(props: { frame: Frame; token: string; page: VenueRequestPage }) {
  const { page } = props;
  return (
    <VenueLayout frame={props.frame} title={`Request for proposals: ${page.event.name}`}>
      <RequestHead page={page} title={`Request for proposals: ${page.event.name}`} />
      <ErrorAlert labelledBy="refused-title">
        <h2 id="refused-title">Nothing was sent: this request is closed</h2>
        <p>{closedWords(page.request.status, 'over')}</p>
      </ErrorAlert>
      <LatestProposal page={page} />
      <EventDetails page={page} />
    </VenueLayout>
  );
}

function RoomRatesGrid(props: { page: VenueRequestPage; values: FormBody; errors: Map<string, string[]> }) {
  const { values, errors } = props;
  const grid = roomGrid(props.page.event.accommodations, values);
  const requested = props.page.event.accommodations;
  const roomsErrors = errors.get('rooms');
  return (
    <fieldset id={fieldId('rooms')} class={roomsErrors ? 'invalid' : undefined}>
      <legend>{PROPOSAL_FIELD_LABELS.rooms}</legend>
      <p class="hint" id="rooms-hint">
        For each night and room type: how many rooms you offer, and the rate per room per night. Leave both
        blank for none.
      </p>
      <ErrorText id={fieldId('rooms')} messages={roomsErrors} />
      {grid.nights.length === 0 ? (
        <p class="empty">No guest rooms were requested.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways on a phone, so the keyboard must reach it
        <section class="table-wrap" aria-labelledby="rates-caption" tabIndex={0}>
          <table class="rooms editable rates">
            <caption id="rates-caption">Rooms and rates per night</caption>
            <thead>
              <tr>
                <th scope="col">Night</th>
                {grid.types.map((type) => (
                  <th scope="col">{type}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {grid.nights.map((night) => {
                const nightErrors = errors.get(`rooms.${night}`);
                return (
                  <tr>
                    <th scope="row" id={fieldId(`rooms.${night}`)}>
                      {day(night)}
                      <ErrorText id={fieldId(`rooms.${night}`)} messages={nightErrors} />
                    </th>
                    {grid.types.map((type) => {
                      const asked = requested[night]?.[type];
                      return (
                        <td>
                          <RateCell
                            name={`rooms.${night}.${type}.count`}
                            label={`${type} rooms, night of ${day(night)}`}
                            values={values}
                            errors={errors}
                            hint={asked === undefined ? undefined : `${count(asked)} requested`}
                          />
                          <RateCell
                            name={`rooms.${night}.${type}.rate`}
                            label={`${type} rate per room, night of ${day(night)}`}
                            values={values}
                            errors={errors}
                          />
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      )}
    </fieldset>
  );
}

/** One number of the rates grid: labelled for screen readers, its problem beside it. */
function RateCell(props: {
  name: string;
  label: string;
  values: FormBody;
  errors: Map<string, string[]>;
  hint?: string | undefined;
}) {
  const id = fieldId(props.name);
  const messages = props.errors.get(props.name);
  const invalid = Boolean(messages?.length);
  const isRate = props.name.endsWith('.rate');
  const described = [props.hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={invalid ? 'cell invalid' : 'cell'}>
      <label for={id}>
        <span class="visually-hidden">{props.label}</span>
        <span aria-hidden="true">{isRate ? 'Rate' : 'Rooms'}</span>
      </label>
      <input
        id={id}
        name={props.name}
        type="text"
        inputMode={isRate ? 'decimal' : 'numeric'}
        value={field(props.values, props.name)}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
      {props.hint && (
        <span class="hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      )}
      <ErrorText id={id} messages={messages} />
    </div>
  );
}

export function ProposalFormPage(props: {
  frame: Frame;
  token: string;
  page: VenueRequestPage;
  values: FormBody;
  problems: readonly FormProblem[];
  /** The versions sent while the venue was writing (D26): the form comes back with them shown. */
  changedSince?: readonly VenueVersionView[];
}) {
  const { page, values, token } = props;
  const errors = problemsByField(props.problems);
  const revising = page.proposal !== null;
  const changedSince = props.changedSince ?? [];
  const title = revising ? 'Revise your proposal' : 'Send a proposal';
  const value = (name: string) => field(values, name);
  const textField = (
    name: string,
    options: { label?: string; hint?: string; type?: 'text' | 'date'; required?: boolean } = {},
  ) => (
    <TextField
      name={name}
      label={options.label ?? venueControlLabel(name)}
      value={value(name)}
      errors={errors}
      type={options.type ?? 'text'}
      {...(options.hint ? { hint: options.hint } : {})}
      {...(options.required ? { required: true } : {})}
    />
  );
  const holdErrors = errors.get('holdOption');
  return (
    <VenueLayout frame={props.frame} title={`${title}: ${page.event.name}`}>
      <p>
        <a href={venueHref.request(token)}>Back to the request</a>
      </p>
      <h1>
        {title}: {page.event.name}
      </h1>
      <p>
        For {page.organizationName}
        {revising
          ? `. This form holds your latest proposal (revision ${page.proposal!.revision}); what you send becomes revision ${page.proposal!.revision + 1}, and the earlier ones are kept.`
          : '. Fill in what you offer: at least the date until which your terms hold, and a price for guest rooms, a meeting-room rental or a food and beverage minimum.'}
      </p>
      {changedSince.length > 0 && (
        <ErrorAlert labelledBy="changed-title">
          <h2 id="changed-title">The request changed while you were writing</h2>
          <p>
            Nothing was sent. Everything you typed is kept below: check it against what changed, then send it
            again.
          </p>
          {changedSince.map((update) => (
            <VersionChanges update={update} />
          ))}
        </ErrorAlert>
      )}
      <ErrorSummary problems={props.problems} labels={venueControlLabel} />
      <form method="post" action={venueHref.proposal(token)} novalidate>
        <CsrfField token={props.frame.csrf} />
        {page.requestVersion !== null && (
          <input type="hidden" name="requestVersion" value={String(page.requestVersion)} />
        )}
        <fieldset>
          <legend>The offer</legend>
          {textField('validUntil', {
            type: 'date',
            hint: 'The last day you hold these terms.',
            required: true,
          })}
          <div class="inline-fields">
            {textField('offeredDates.startDate', { type: 'date', label: 'Dates offered: first day' })}
            {textField('offeredDates.endDate', { type: 'date', label: 'Dates offered: last day' })}
          </div>
          {textField('currency', {
            hint: 'A currency code such as USD, EUR or GBP; the event’s when left blank.',
          })}
          <div class={holdErrors ? 'field invalid' : 'field'}>
            <label for={fieldId('holdOption')}>{PROPOSAL_FIELD_LABELS.holdOption}</label>
            <ErrorText id={fieldId('holdOption')} messages={holdErrors} />
            <select
              id={fieldId('holdOption')}
              name="holdOption"
              aria-invalid={holdErrors ? 'true' : undefined}
              aria-describedby={holdErrors ? `${fieldId('holdOption')}-error` : undefined}
            >
              {HOLD_OPTIONS.map((option) => (
                <option value={option} selected={value('holdOption') === option}>
                  {HOLD_OPTION_LABELS[option]}
                </option>
              ))}
            </select>
          </div>
        </fieldset>
        <RoomRatesGrid page={page} values={values} errors={errors} />
        <fieldset>
          <legend>Charges for the whole event</legend>
          {AMOUNT_CONTROLS.map((name) => textField(name, { hint: 'An amount, e.g. 1200 or 1200.50.' }))}
        </fieldset>
        <fieldset>
          <legend>Terms</legend>
          {PERCENT_CONTROLS.map((name) =>
            textField(
              name,
              name === 'attritionPercent'
                ? { hint: 'The share of the room block that may go unused without charge.' }
                : {},
            ),
          )}
          {textField('cutoffDate', {
            type: 'date',
            hint: 'When rooms not yet booked return to you; not after the first day offered.',
          })}
        </fieldset>
        <fieldset>
          <legend>{PROPOSAL_FIELD_LABELS.cancellation}</legend>
          <p class="hint">
            Each step: the share of the total charged when the event is cancelled fewer than that many days
            before its first day. Leave spare rows blank.
          </p>
          {cancellationRows(values).map((index) => (
            <div class="inline-fields">
              {textField(`cancellation[${index}].daysBefore`, { label: `Step ${index + 1}: days before` })}
              {textField(`cancellation[${index}].percent`, { label: `Step ${index + 1}: share charged (%)` })}
            </div>
          ))}
        </fieldset>
        <TextArea
          name="notes"
          label={PROPOSAL_FIELD_LABELS.notes}
          value={value('notes')}
          errors={errors}
          rows={4}
        />
        <div class="form-actions">
          <button type="submit" class="primary">
            {revising ? 'Send the revised proposal' : 'Send the proposal'}
          </button>
          <a href={venueHref.request(token)}>Cancel</a>
        </div>
      </form>
    </VenueLayout>
  );
}

export function TurnDownPage(props: {
  frame: Frame;
  token: string;
  page: VenueRequestPage;
  values: FormBody;
  problems: readonly FormProblem[];
}) {
  const { page, values, token } = props;
  const errors = problemsByField(props.problems);
  const reasonErrors = errors.get('reason');
  return (
    <VenueLayout frame={props.frame} title={`Turn down: ${page.event.name}`}>
      <p>
        <a href={venueHref.request(token)}>Back to the request</a>
      </p>
      <h1>Turn down the request for {page.event.name}</h1>
      <p>
        {page.proposal
          ? `${page.organizationName} is told that ${page.venue.name} takes back its proposal and will not take part.`
          : `${page.organizationName} is told that ${page.venue.name} will not make a proposal.`}{' '}
        This closes the request: it cannot be undone here.
      </p>
      <ErrorSummary problems={props.problems} labels={venueControlLabel} />
      <form method="post" action={venueHref.turnDown(token)} novalidate>
        <CsrfField token={props.frame.csrf} />
        <fieldset
          id={fieldId('reason')}
          class={reasonErrors ? 'invalid' : undefined}
          aria-describedby={reasonErrors ? `${fieldId('reason')}-error` : undefined}
        >
          <legend>
            Reason<span aria-hidden="true"> *</span>
          </legend>
          <ErrorText id={fieldId('reason')} messages={reasonErrors} />
          {TURN_DOWN_REASONS.map((reason) => (
            <div class="checkbox">
              <input
                type="radio"
                id={`reason-${reason}`}
                name="reason"
                value={reason}
                checked={field(values, 'reason') === reason}
              />
              <label for={`reason-${reason}`}>{TURN_DOWN_REASON_LABELS[reason]}</label>
            </div>
          ))}
        </fieldset>
        <TextArea
          name="comment"
          label="Comment"
          hint="Optional, but needed when the reason is another one. The planner reads it."
          value={field(values, 'comment')}
          errors={errors}
        />
        <div class="form-actions">
          <button type="submit" class="danger">
            Turn down the request
          </button>
          <a href={venueHref.request(token)}>Cancel</a>
        </div>
      </form>
    </VenueLayout>
  );
}

const ERROR_PAGES: Record<number, { title: string; text: string }> = {
  403: {
    title: 'This form has expired',
    text: 'The page was open too long, or the form came from elsewhere, so nothing was sent. Open the link from your email again and try once more.',
  },
  404: {
    title: 'This link is not valid',
    text: 'Check that the whole link from the email was opened. If it still does not work, ask the planner who sent it for a new one.',
  },
  413: { title: 'That form is too large', text: 'Nothing was sent: a form may hold at most 1 MiB.' },
  429: { title: 'Too many requests', text: 'Wait a moment, then try again.' },
  500: { title: 'Something went wrong', text: 'Nothing was sent. Try again in a moment.' },
  503: {
    title: 'Service unavailable',
    text: 'The service cannot answer right now; nothing was sent. Try again shortly.',
  },
};

/** The venue's error pages: what happened and what to do, and nothing about any request. */
export function VenueErrorPage(props: { frame: Frame; status: number }) {
  const page =
    ERROR_PAGES[props.status] ??
    (props.status < 500
      ? { title: 'That request could not be read', text: 'Nothing was sent. Go back and try again.' }
      : ERROR_PAGES[500]!);
  return (
    <VenueLayout frame={props.frame} title={page.title}>
      <h1>{page.title}</h1>
      <p>{page.text}</p>
    </VenueLayout>
  );
}
