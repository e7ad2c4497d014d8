/** The event page's markup: every field of the event, readable at a glance, with the moves this person may make. */
import type { EventView } from '../../../app/planning.js';
import { statusChangeData } from '../../../domain/changes.js';
import { EVENT_FIELDS, type EventField } from '../../../domain/event-field-table.js';
import { MOVE_LABELS } from '../../../domain/moves.js';
import { type AgendaItem, BUDGET_CATEGORIES, type EventDetails } from '../../../domain/types.js';
import { AgendaByDay } from '../../agenda-by-day.js';
import { EventTabs } from '../../event-tabs.js';
import { count, dateRange, dateRanges, deadline, instant, money, personName } from '../../format.js';
import { checklistLink, href } from '../../href.js';
import { CsrfField, type Frame, Layout, StatusBadge } from '../../layout.js';
import { locationWords } from '../../place-words.js';
import { RoomBlockTable } from '../../room-block-table.js';
import { BUDGET_LABELS, withReadableDates } from '../../words.js';
import { actorName, History } from './history.js';
import { QuestionsSection } from './questions.js';
import { sendLabel, UnsentChangesList } from './send-changes.js';
import { VenuesSection } from './venues-section.js';

/** The label people read for a field, the same on the form and on this page. */
const label = (name: EventField) => EVENT_FIELDS[name].label;

const text = (value: string | null) => (value === null || value === '' ? '—' : value);

/** A term and its value; `internal` ones are for the planning team and stay off the printed brief. */
function Definition(props: { term: string; internal?: boolean; children: preact.ComponentChildren }) {
  return (
    <div class={props.internal ? 'definition internal' : 'definition'}>
      <dt>{props.term}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

function BudgetTable(props: { details: EventDetails }) {
  const { budgetBreakdown, currency } = props.details;
  const lines = BUDGET_CATEGORIES.filter((category) => budgetBreakdown[category] !== undefined);
  const cents = lines.reduce((sum, category) => sum + Math.round((budgetBreakdown[category] ?? 0) * 100), 0);
  if (lines.length === 0) return <p class="empty">No budget yet.</p>;
  return (
    <table class="budget">
      <caption>Budget in {currency}</caption>
      <thead>
        <tr>
          <th scope="col">Line</th>
          <th scope="col" class="number">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((category) => (
          <tr>
            <th scope="row">{BUDGET_LABELS[category]}</th>
            <td class="number">{money(budgetBreakdown[category] ?? 0, currency)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td class="number">{money(cents / 100, currency)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

function RoomGrid(props: { details: EventDetails }) {
  return (
    <RoomBlockTable
      accommodations={props.details.accommodations}
      caption="Guest rooms per night"
      captionId="room-grid-caption"
      empty="No guest rooms yet."
      markPeak
    />
  );
}

/** A session's line on the event page: every detail of it. */
const SessionDetails = (props: { session: AgendaItem }) => {
  const { session } = props;
  return (
    <>
      <strong>{session.title}</strong>
      {session.roomType && <span> · {session.roomType}</span>}
      {session.capacity > 0 && <span> · {count(session.capacity)} people</span>}
      {session.avRequirements.length > 0 && <span> · AV: {session.avRequirements.join(', ')}</span>}
      {session.fbRequirements.length > 0 && <span> · F&amp;B: {session.fbRequirements.join(', ')}</span>}
      {session.notes && <p class="notes">{session.notes}</p>}
    </>
  );
};

/** The latest comment or reason of a status move, shown with the status it explains. */
function latestNote(view: EventView) {
  const last = view.history.find((change) => change.type === 'event.status_changed');
  const move = last && statusChangeData(last);
  if (!last || !move || move.to !== view.details.status) return undefined;
  const note = move.comment ?? move.reason;
  if (!note) return undefined;
  return { who: actorName(last.actor, view), note, kind: move.comment ? 'comment' : 'reason' };
}

function StatusPanel(props: { view: EventView; csrf: string }) {
  const { view } = props;
  const id = view.details.id;
  const note = latestNote(view);
  const showChecklist = view.moves.includes('request_approval') || view.moves.includes('send_to_venues');
  return (
    <section class="panel" aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
      <p>
        <StatusBadge status={view.details.status} />
      </p>
      {note && (
        <p class="status-note">
          {note.kind === 'comment' ? 'Returned with a comment' : 'Cancelled'} by {note.who}: “{note.note}”
        </p>
      )}
      {showChecklist && view.checklist.missing.length > 0 && (
        <section class="checklist" aria-labelledby="checklist-title">
          <h3 id="checklist-title">Before sending, fill in</h3>
          <ul>
            {view.checklist.missing.map((item) => (
              <li>
                <a href={checklistLink(id, item.field)}>{withReadableDates(item.message)}</a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {view.checklist.warnings.length > 0 && (
        <section class="warnings" aria-labelledby="warnings-title">
          <h3 id="warnings-title">Worth a look</h3>
          <ul>
            {view.checklist.warnings.map((item) => (
              <li>{withReadableDates(item.message)}</li>
            ))}
          </ul>
        </section>
      )}
      {view.unsent && (
        <section class="unsent" aria-labelledby="unsent-title">
          <h3 id="unsent-title">Changes not sent to venues</h3>
          <p class="hint">Venues read the request as it was last sent. Since then:</p>
          <UnsentChangesList changes={view.unsent.changes} />
          {view.unsent.openRequests > 0 ? (
            <p>
              <a class="button primary" href={href.sendChanges(id)}>
                {sendLabel(view, view.unsent.openRequests)}
              </a>
            </p>
          ) : (
            <p class="hint">No venue is asked now; venues asked later read the request as it is.</p>
          )}
        </section>
      )}
      {view.moves.length > 0 ? (
        <div class="moves">
          {view.moves.map((move) => (
            <form method="get" action={href.move(id, move)} class="inline">
              <button type="submit" class={move === 'cancel' ? 'danger' : undefined}>
                {MOVE_LABELS[move]}
              </button>
            </form>
          ))}
        </div>
      ) : (
        <p class="hint">No status move is open to you now.</p>
      )}
    </section>
  );
}

export function EventPage(props: { frame: Frame; view: EventView; notice?: string | undefined }) {
  const { view } = props;
  const { details } = view;
  const id = details.id;
  const editable = details.status !== 'cancelled';
  return (
    <Layout frame={props.frame} title={details.name} notice={props.notice} scripts={[]}>
      <div class="page-head">
        <h1>{details.name}</h1>
        <div class="actions">
          {editable && (
            <>
              <a class="button" href={href.editEvent(id)}>
                Edit details
              </a>
              <a class="button" href={href.rooms(id)}>
                Edit rooms
              </a>
              <a class="button" href={href.agenda(id)}>
                Edit agenda
              </a>
            </>
          )}
          <form method="post" action={href.duplicateEvent(id)} class="inline">
            <CsrfField token={props.frame.csrf} />
            <button type="submit">Duplicate</button>
          </form>
        </div>
      </div>
      <EventTabs eventId={id} current="details" />
      {!editable && <p class="notice">This event is cancelled: reopen it to change it.</p>}
      <nav class="tabs" aria-label="On this page">
        <a href="#overview">Overview</a> <a href="#budget">Budget</a> <a href="#rooms">Rooms</a>{' '}
        <a href="#meeting-rooms">Meeting rooms</a> <a href="#agenda">Agenda</a> <a href="#notes">Notes</a>{' '}
        {view.questions.length > 0 && (
          <>
            <a href="#questions">Questions</a>{' '}
          </>
        )}
        <a href="#venues">Venues</a> <a href="#history">History</a>
      </nav>
      <div class="columns">
        {/* First, so that on a phone the status and its moves come before the details. */}
        <aside>
          <StatusPanel view={view} csrf={props.frame.csrf} />
        </aside>
        <div class="details">
          <section id="overview" aria-labelledby="overview-title">
            <h2 id="overview-title">Overview</h2>
            <dl class="definitions">
              <Definition term={label('formattedLocations')}>
                {details.formattedLocations.length === 0 ? (
                  '—'
                ) : (
                  <ul class="plain">
                    {details.formattedLocations.map((location) => (
                      <li>{locationWords(location)}</li>
                    ))}
                  </ul>
                )}
              </Definition>
              <Definition term={label('numPeople')}>{count(details.numPeople)}</Definition>
              <Definition term={label('eventDates')}>{dateRanges(details.eventDates)}</Definition>
              <Definition term={label('flexibility')}>{text(details.flexibility)}</Definition>
              <Definition term={label('decisionDeadline')}>{deadline(details.decisionDeadline)}</Definition>
              <Definition term={label('currency')}>{details.currency}</Definition>
              <Definition term="Created by">{personName(view.creator)}</Definition>
              <Definition term="Approvers">
                {view.approvers.length === 0
                  ? 'None'
                  : view.approvers.map((person) => personName(person)).join(', ')}
              </Definition>
              <Definition term={label('createdAt')}>{instant(details.createdAt)}</Definition>
              <Definition term={label('updatedAt')}>{instant(details.updatedAt)}</Definition>
            </dl>
          </section>
          <section id="budget" aria-labelledby="budget-title">
            <h2 id="budget-title">{label('budgetBreakdown')}</h2>
            <BudgetTable details={details} />
          </section>
          <section id="rooms" aria-labelledby="rooms-title">
            <h2 id="rooms-title">{label('accommodations')}</h2>
            <RoomGrid details={details} />
          </section>
          <section id="meeting-rooms" aria-labelledby="meeting-rooms-title">
            <h2 id="meeting-rooms-title">Meeting rooms</h2>
            <dl class="definitions">
              <Definition term={label('meetingRoomDates')}>
                {details.meetingRoomDates.length === 0 ? (
                  '—'
                ) : (
                  <ul class="plain">
                    {details.meetingRoomDates.map((range) => (
                      <li>{dateRange(range)}</li>
                    ))}
                  </ul>
                )}
              </Definition>
              <Definition term={label('numMeetingRoomsNeeded')}>
                {details.numMeetingRoomsNeeded === null ? '—' : count(details.numMeetingRoomsNeeded)}
              </Definition>
              <Definition term={label('meetingRooms')}>{text(details.meetingRooms)}</Definition>
            </dl>
          </section>
          <section id="agenda" aria-labelledby="agenda-title">
            <h2 id="agenda-title">{label('agenda')}</h2>
            <AgendaByDay
              agenda={details.agenda}
              session={(session) => <SessionDetails session={session} />}
            />
          </section>
          <section id="notes" aria-labelledby="notes-title">
            <h2 id="notes-title">Notes and requirements</h2>
            <dl class="definitions">
              <Definition term={label('foodBeverageRequirements')}>
                {text(details.foodBeverageRequirements)}
              </Definition>
              <Definition term={label('otherNotes')} internal>
                {text(details.otherNotes)}
              </Definition>
              <Definition term={label('notesForVenue')}>{text(details.notesForVenue)}</Definition>
              <Definition term={label('decisionFactors')}>
                {details.decisionFactors.length === 0 ? '—' : details.decisionFactors.join(', ')}
                {details.decisionFactorOtherText && <span> ({details.decisionFactorOtherText})</span>}
              </Definition>
              <Definition term={label('additionalServices')}>
                {details.additionalServices.length === 0 ? '—' : details.additionalServices.join(', ')}
              </Definition>
            </dl>
          </section>
          <QuestionsSection view={view} csrf={props.frame.csrf} />
          <VenuesSection view={view} />
          <section id="history" aria-labelledby="history-title">
            <h2 id="history-title">History</h2>
            <History view={view} />
          </section>
        </div>
      </div>
    </Layout>
  );
}
