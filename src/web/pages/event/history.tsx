/**
 * The event page's History (D17): who changed what and when, each changed field named as people name
 * it, with its value before and after in readable form (money in the event's currency, dates, rooms
 * per night, the agenda's sessions by title), as Indico's event log shows them.
 */
import type { ChangeValues } from '../../../app/change-values.js';
import type { EventView } from '../../../app/planning.js';
import {
  type ChangeRecord,
  questionChangeData,
  requestChangeData,
  revisedChangeData,
  statusChangeData,
} from '../../../domain/changes.js';
import { EVENT_FIELDS, type EventField, fieldNamed } from '../../../domain/event-field-table.js';
import {
  type AgendaItem,
  BUDGET_CATEGORIES,
  type BudgetBreakdown,
  type DateRange,
  type FormattedLocation,
  ROOM_TYPES,
  type RoomCounts,
} from '../../../domain/types.js';
import { count, dateRanges, day, deadline, instant, money, personName } from '../../format.js';
import { locationWords } from '../../place-words.js';
import {
  BUDGET_LABELS,
  changedFieldLabels,
  requestReason,
  sessionLabel,
  shownChangedFields,
  statusLabel,
} from '../../words.js';

/** One line of a change: a field (or a part of one) and its value before and after. */
export interface ValueChange {
  label: string;
  before: string;
  after: string;
}

const NONE = '—';
/** Longer text is cut here: the history says what changed, the event page shows it whole. */
const TEXT_SHOWN = 160;
/** Lines shown per change; the rest are counted. */
const LINES_SHOWN = 12;

const text = (value: unknown): string => {
  if (typeof value !== 'string' || value.trim() === '') return NONE;
  const characters = [...value];
  return characters.length > TEXT_SHOWN ? `${characters.slice(0, TEXT_SHOWN).join('')}…` : value;
};

const list = (value: unknown): string =>
  Array.isArray(value) && value.length > 0 ? value.map(String).join(', ') : NONE;

function rooms(counts: RoomCounts | undefined): string {
  if (!counts) return NONE;
  const parts = ROOM_TYPES.filter((type) => (counts[type] ?? 0) > 0).map(
    (type) => `${count(counts[type]!)} ${type}`,
  );
  return parts.length > 0 ? parts.join(', ') : 'no rooms';
}

function session(item: AgendaItem | undefined): string {
  if (!item) return 'not on the agenda';
  const parts = [
    `“${item.title}”`,
    item.dates.map(day).join(', '),
    `${item.startTime}–${item.endTime}`,
    item.roomType,
    item.capacity > 0 ? `${count(item.capacity)} people` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

/**
 * One session's change: its summary before and after; when the summary is the same (its notes or
 * needs changed), each field that changed.
 */
function sessionChanges(from: AgendaItem | undefined, to: AgendaItem | undefined): ValueChange[] {
  const title = (to ?? from)!.title;
  if (session(from) !== session(to))
    return [{ label: `Session “${title}”`, before: session(from), after: session(to) }];
  const [a, b] = [from as unknown as Record<string, unknown>, to as unknown as Record<string, unknown>];
  return Object.keys({ ...a, ...b })
    .filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]))
    .map((key) => {
      const words = (value: unknown) => (Array.isArray(value) ? list(value) : text(value));
      return {
        label: `Session “${title}”: ${sessionLabel(key)}`,
        before: words(a[key]),
        after: words(b[key]),
      };
    });
}

type Keyed<T> = Record<string, T>;
const keyed = <T,>(value: unknown): Keyed<T> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Keyed<T>) : {};

/** The lines of one changed field, each part that changed with its value before and after. */
export function fieldChanges(
  field: EventField,
  before: unknown,
  after: unknown,
  currency: string,
): ValueChange[] {
  const label = EVENT_FIELDS[field].label;
  switch (EVENT_FIELDS[field].kind) {
    case 'budget': {
      const [from, to] = [keyed<number>(before) as BudgetBreakdown, keyed<number>(after) as BudgetBreakdown];
      const amount = (value: number | undefined) => (value === undefined ? NONE : money(value, currency));
      return BUDGET_CATEGORIES.filter((line) => from[line] !== to[line]).map((line) => ({
        label: `${label}: ${BUDGET_LABELS[line]}`,
        before: amount(from[line]),
        after: amount(to[line]),
      }));
    }
    case 'accommodations': {
      const [from, to] = [keyed<RoomCounts>(before), keyed<RoomCounts>(after)];
      const nights = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
      return nights
        .filter((night) => rooms(from[night]) !== rooms(to[night]))
        .map((night) => ({
          label: `Rooms, night of ${day(night)}`,
          before: rooms(from[night]),
          after: rooms(to[night]),
        }));
    }
    case 'sessions': {
      const [from, to] = [keyed<AgendaItem>(before), keyed<AgendaItem>(after)];
      const ids = [...new Set([...Object.keys(from), ...Object.keys(to)])];
      return ids.flatMap((id) => sessionChanges(from[id], to[id]));
    }
    case 'locations': {
      const places = (value: unknown) =>
        Array.isArray(value) && value.length > 0
          ? (value as FormattedLocation[]).map(locationWords).join('; ')
          : NONE;
      return [{ label, before: places(before), after: places(after) }];
    }
    case 'dateRanges':
      return [
        {
          label,
          before: Array.isArray(before) ? dateRanges(before as DateRange[]) : NONE,
          after: Array.isArray(after) ? dateRanges(after as DateRange[]) : NONE,
        },
      ];
    case 'count':
      return [
        {
          label,
          before: typeof before === 'number' ? count(before) : NONE,
          after: typeof after === 'number' ? count(after) : NONE,
        },
      ];
    case 'deadline':
      return [
        {
          label,
          before: typeof before === 'string' ? deadline(before) : NONE,
          after: typeof after === 'string' ? deadline(after) : NONE,
        },
      ];
    case 'textList':
      return [{ label, before: list(before), after: list(after) }];
    case 'status':
      return [];
    default:
      return [{ label, before: text(before), after: text(after) }];
  }
}

/** Every line of a change, in the order of the details view; none for a create. */
export function changeLines(change: ChangeRecord, values: ChangeValues | undefined, currency: string) {
  if (!values || change.type !== 'event.updated') return [];
  return shownChangedFields(change.changedFields).flatMap((field) =>
    fieldNamed(field)
      ? fieldChanges(field as EventField, values.before[field], values.after[field], currency)
      : [],
  );
}

/** Who made a change, in words. */
export function actorName(actor: ChangeRecord['actor'], view: Pick<EventView, 'people' | 'venues'>): string {
  switch (actor.type) {
    case 'operator':
      return 'An operator';
    case 'system':
      return 'eventplan';
    case 'venue':
      return view.venues[actor.venueId] ?? 'A venue';
    case 'api_key':
      return `${personName(view.people[actor.userId])} (API key ${actor.keyId})`;
    case 'person':
      return personName(view.people[actor.userId]);
  }
}

/** What the history needs to say a change: who is who, the venues by name and the requests' reasons. */
type Named = Pick<EventView, 'people' | 'venues'> & Partial<Pick<EventView, 'requests'>>;

/** What a step on a venue request did, in a sentence: "Hotel Central was sent the request by Ana". */
function describeRequestStep(change: ChangeRecord, view: Named, who: string): string | undefined {
  const step = requestChangeData(change);
  if (!step) return undefined;
  const venue = view.venues[step.venueId] ?? 'A venue';
  const request = view.requests?.find((candidate) => candidate.id === step.requestId);
  const byVenue = change.actor.type === 'venue';
  const by = byVenue ? '' : ` by ${change.actor.type === 'operator' ? 'an operator' : who}`;
  const reason = request && requestReason(request);
  switch (change.type) {
    case 'venue_request.sent':
      return `${venue} was sent the request${by}`;
    case 'venue_request.withdrawn':
      return `The request to ${venue} was withdrawn${by}`;
    case 'venue_request.turned_down':
      // A venue turns a request down once; the request keeps why.
      return `${venue} turned down the request${reason ? `: ${reason}` : ''}`;
    case 'venue_request.awarded':
      return `${venue} was awarded the event${by}`;
    case 'venue_request.declined':
      // Declined is final: the request keeps the reason of this step.
      return `The proposal of ${venue} was declined${by}${reason ? `: ${reason}` : ''}`;
    case 'venue_request.no_response':
      return `${venue} never sent a proposal; its request closed when another venue was chosen`;
    case 'venue_request.reminded':
      return `${venue} was reminded that its answer is due ${step.responseDueDate ? `by ${day(step.responseDueDate)}` : 'soon'}`;
    case 'venue_request.revision_requested':
      return `${venue} was asked to revise its proposal${step.proposalRevision ? ` (revision ${step.proposalRevision})` : ''}${by}`;
    case 'venue_request.due_date_changed':
      return `The reply date of ${venue} was moved${step.previousResponseDueDate ? ` from ${day(step.previousResponseDueDate)}` : ''} to ${step.responseDueDate ? day(step.responseDueDate) : 'another day'}${by}`;
    case 'proposal.submitted': {
      const revision = step.proposalRevision ?? 1;
      const what = revision > 1 ? `revised its proposal (revision ${revision})` : 'sent its proposal';
      return byVenue
        ? `${venue} ${what}`
        : `${who} entered the proposal of ${venue}${revision > 1 ? ` (revision ${revision})` : ''} on its behalf`;
    }
    default:
      return `${who} changed the request to ${venue}`;
  }
}

/** What a change did, in a sentence: never a field's API name or a code. */
export function describeChange(change: ChangeRecord, view: Named): string {
  const who = actorName(change.actor, view);
  if (change.type === 'event.created') return `${who} created the event`;
  const move = statusChangeData(change);
  if (move) return `${who} moved it from ${statusLabel(move.from)} to ${statusLabel(move.to)}`;
  const step = describeRequestStep(change, view, who);
  if (step) return step;
  const question = questionChangeData(change);
  if (question) {
    const venue = view.venues[question.venueId] ?? 'A venue';
    if (change.type === 'question.asked') return `${venue} asked a question`;
    const shared = question.sharedWith === 'asker' ? `for ${venue} only` : 'for every venue asked';
    return `${who} answered a question of ${venue}, ${shared}`;
  }
  const revised = revisedChangeData(change);
  if (revised) {
    return revised.changedFields.length > 0
      ? `${who} sent the changes to the venues (version ${revised.version} of the request)`
      : `${who} sent the venues a message (version ${revised.version} of the request)`;
  }
  if (change.type !== 'event.updated') return `${who} changed the event`;
  const labels = changedFieldLabels(change.changedFields);
  return labels.length > 0 ? `${who} changed ${labels.join(', ')}` : `${who} changed the event`;
}

function ValueLines(props: { lines: ValueChange[] }) {
  if (props.lines.length === 0) return null;
  const shown = props.lines.slice(0, LINES_SHOWN);
  const more = props.lines.length - shown.length;
  return (
    <ul class="change-values">
      {shown.map((line) => (
        <li>
          {line.label}: <span class="before">{line.before}</span> <span aria-hidden="true">→</span>
          <span class="visually-hidden">changed to</span> <span class="after">{line.after}</span>
        </li>
      ))}
      {more > 0 && <li>and {more === 1 ? '1 more change' : `${count(more)} more changes`}</li>}
    </ul>
  );
}

export function History(props: { view: EventView }) {
  const { view } = props;
  if (view.history.length === 0) return <p class="empty">No recorded changes.</p>;
  return (
    <ol class="history" reversed>
      {view.history.map((change) => (
        <li>
          <span class="when">{instant(change.occurredAt)}</span> — {describeChange(change, view)}
          <ValueLines lines={changeLines(change, view.changeValues.get(change.id), view.details.currency)} />
          {statusChangeData(change)?.comment && (
            <blockquote>Comment: {statusChangeData(change)?.comment}</blockquote>
          )}
          {statusChangeData(change)?.reason && (
            <blockquote>Reason: {statusChangeData(change)?.reason}</blockquote>
          )}
        </li>
      ))}
    </ol>
  );
}
