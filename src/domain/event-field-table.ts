/**
 * Every field of an event, described once, in the order of the full details view: who sets it, its
 * kind, its limits, what `null` does to it, the label and hint people read in the dashboard and the
 * description integrators read in the API reference. The checks of a create or an update, a new event,
 * the copy of an event, the API's schemas and the dashboard's form and pages are derived from it, the
 * way a form takes its fields from the model. Venues and proposals, whose fields are flat, are described
 * with field-descriptions.ts; an event's fields are composite (objects merged key by key, lists of
 * locations and ranges, the agenda), so they have kinds of their own here. `whenNull` means the same in
 * both.
 */
import {
  type Accommodations,
  type AgendaItem,
  BUDGET_CATEGORIES,
  type BudgetBreakdown,
  type DateRange,
  type EventDetails,
  type EventStatus,
  type FormattedLocation,
  LIMITS,
} from './types.js';

/** Who sets a field. Every field but the `writable` ones is read-only on update (D6). */
export type EventFieldAccess =
  /** The client, on create and by update (JSON Merge Patch). */
  | 'writable'
  /** The client, on create only. */
  | 'create-only'
  /** The initial sessions of a create, then only `agendaOperations` (D7). */
  | 'agenda-operations'
  /** The service alone. */
  | 'service'
  /** Recomputed from the other fields after every change (D8). */
  | 'derived';

/** What each kind of field holds. */
interface KindValues {
  text: string;
  count: number;
  deadline: string;
  textList: string[];
  locations: FormattedLocation[];
  dateRanges: DateRange[];
  budget: BudgetBreakdown;
  accommodations: Accommodations;
  sessions: AgendaItem[];
  uuid: string;
  status: EventStatus;
  currency: string;
  timestamp: string;
}
export type EventFieldKind = keyof KindValues;

/**
 * What a `null` sent for a writable field does (D6): `refused` is a 400 (the field cannot be cleared),
 * `null` stores null, `empty` stores the kind's empty value (`0`, `[]` or `{}`).
 */
export type EventWhenNull = 'refused' | 'null' | 'empty';

export interface EventFieldDescription {
  readonly access: EventFieldAccess;
  readonly kind: EventFieldKind;
  /** Writable fields only. */
  readonly whenNull?: EventWhenNull;
  /** Text: at most this many Unicode characters. */
  readonly maxLength?: number;
  /** Text: not empty and not only white space. */
  readonly notBlank?: boolean;
  /** Lists: at most this many entries. */
  readonly maxItems?: number;
  /** Text typed in a text area rather than on one line. */
  readonly multiline?: boolean;
  /** What people read beside the field in the dashboard. */
  readonly label: string;
  /** One row of a repeated group, numbered in the dashboard ("Candidate city 2"). */
  readonly itemLabel?: string;
  /** Help shown under the label in the dashboard's form. */
  readonly hint?: string;
  /** What integrators read in the API reference (Markdown). */
  readonly description: string;
}

export const EVENT_FIELDS = {
  id: {
    access: 'service',
    kind: 'uuid',
    label: 'Id',
    description: 'Stable public identifier.',
  },
  name: {
    access: 'writable',
    kind: 'text',
    whenNull: 'refused',
    maxLength: LIMITS.name,
    notBlank: true,
    label: 'Name',
    hint: `Up to ${LIMITS.name} characters.`,
    description: `Event title: 1 to ${LIMITS.name} characters, not blank.`,
  },
  status: {
    access: 'service',
    kind: 'status',
    label: 'Status',
    description:
      'Planning status. `draft` on create; only operators move it. A `cancelled` event refuses updates (409).',
  },
  currency: {
    access: 'create-only',
    kind: 'currency',
    label: 'Currency',
    hint: 'A three-letter currency code, such as USD, EUR or GBP. It cannot be changed later.',
    description: 'ISO 4217 code; set on create.',
  },
  location: {
    access: 'derived',
    kind: 'text',
    label: 'Location',
    description: 'Derived: the formatted addresses of all locations joined by `"; "`.',
  },
  eventDates: {
    access: 'derived',
    kind: 'dateRanges',
    label: 'Dates',
    description:
      'Derived: the nights holding at least one room plus every meeting-room range, as sorted, merged ranges.',
  },
  formattedLocations: {
    access: 'writable',
    kind: 'locations',
    whenNull: 'empty',
    maxItems: LIMITS.formattedLocations,
    label: 'Candidate cities',
    itemLabel: 'Candidate city',
    hint: 'Leave a row blank to leave it out. A city that names one known place (with its country, as a name or a code such as PT) is matched to it when saved.',
    description: 'Candidate locations.',
  },
  numPeople: {
    access: 'writable',
    kind: 'count',
    whenNull: 'empty',
    label: 'Attendees',
    description: 'Total attendees.',
  },
  budgetBreakdown: {
    access: 'writable',
    kind: 'budget',
    whenNull: 'empty',
    label: 'Budget',
    hint: "Amounts in the event's currency, at most two decimals. Leave blank for no such line.",
    description: `Budget by category (${BUDGET_CATEGORIES.join(', ')}), in the event currency.`,
  },
  flexibility: {
    access: 'writable',
    kind: 'text',
    whenNull: 'null',
    maxLength: LIMITS.freeText,
    label: 'Date flexibility',
    hint: '“Dates not flexible”, or say how flexible they are. Leave blank if not known.',
    description:
      'How firm the dates are: exactly `Dates not flexible` means not flexible, other text means flexible.',
  },
  decisionDeadline: {
    access: 'writable',
    kind: 'deadline',
    whenNull: 'null',
    label: 'Decision deadline',
    hint: 'The day by which a venue is to be chosen; add a time (UTC) when it falls within the day.',
    description:
      'When the planner must decide: an RFC 3339 date-time (`2027-01-15T17:00:00Z`) or a date `YYYY-MM-DD`, kept as sent.',
  },
  accommodations: {
    access: 'writable',
    kind: 'accommodations',
    whenNull: 'empty',
    label: 'Room block',
    description: 'Guest rooms per night: night (`YYYY-MM-DD`) -> room counts.',
  },
  meetingRoomDates: {
    access: 'writable',
    kind: 'dateRanges',
    whenNull: 'empty',
    maxItems: LIMITS.meetingRoomDates,
    label: 'Meeting-room dates',
    itemLabel: 'Meeting-room dates',
    description: 'Days meeting rooms are needed. Replaced whole.',
  },
  agenda: {
    access: 'agenda-operations',
    kind: 'sessions',
    label: 'Agenda',
    description: 'The sessions; changed only through `agendaOperations`.',
  },
  numMeetingRoomsNeeded: {
    access: 'writable',
    kind: 'count',
    whenNull: 'null',
    label: 'Meeting rooms needed',
    description: 'Separate meeting rooms needed.',
  },
  foodBeverageRequirements: {
    access: 'writable',
    kind: 'text',
    whenNull: 'null',
    maxLength: LIMITS.freeText,
    multiline: true,
    label: 'Food and beverage requirements',
    description: 'Food and beverage notes.',
  },
  meetingRooms: {
    access: 'writable',
    kind: 'text',
    whenNull: 'null',
    maxLength: LIMITS.freeText,
    multiline: true,
    label: 'Meeting-room notes',
    description: 'Meeting room notes.',
  },
  otherNotes: {
    access: 'writable',
    kind: 'text',
    whenNull: 'null',
    maxLength: LIMITS.freeText,
    multiline: true,
    label: 'Other notes',
    description: 'Other notes.',
  },
  notesForVenue: {
    access: 'writable',
    kind: 'text',
    whenNull: 'null',
    maxLength: LIMITS.freeText,
    multiline: true,
    label: 'Notes for the venue',
    hint: 'Shown to the venues.',
    description: 'Notes shown to the venue.',
  },
  decisionFactors: {
    access: 'writable',
    kind: 'textList',
    whenNull: 'empty',
    maxItems: LIMITS.decisionFactors,
    label: 'Decision factors',
    hint: 'One per line.',
    description: `At most ${LIMITS.decisionFactors} values.`,
  },
  decisionFactorOtherText: {
    access: 'writable',
    kind: 'text',
    whenNull: 'null',
    maxLength: LIMITS.freeText,
    label: 'Other decision factor',
    hint: 'Used when “Other” is among the decision factors.',
    description: 'Free text, used when `Other` is among the decision factors.',
  },
  additionalServices: {
    access: 'writable',
    kind: 'textList',
    whenNull: 'empty',
    maxItems: LIMITS.additionalServices,
    label: 'Additional services',
    hint: 'One per line.',
    description: `At most ${LIMITS.additionalServices} values.`,
  },
  createdAt: {
    access: 'service',
    kind: 'timestamp',
    label: 'Created',
    description: 'When the event was created.',
  },
  updatedAt: {
    access: 'service',
    kind: 'timestamp',
    label: 'Last change',
    description: 'When the event last changed.',
  },
} as const satisfies Record<keyof EventDetails, EventFieldDescription>;

export type EventFields = typeof EVENT_FIELDS;
export type EventField = keyof EventFields;
type FieldsWith<Access extends EventFieldAccess> = {
  [Name in EventField]: EventFields[Name]['access'] extends Access ? Name : never;
}[EventField];
/** The fields a client sets on create and changes by update. */
export type WritableField = FieldsWith<'writable'>;

/** Every field, in the order of the details view. */
export const FIELD_NAMES = Object.keys(EVENT_FIELDS) as EventField[];

export const WRITABLE_FIELDS = FIELD_NAMES.filter(
  (name): name is WritableField => EVENT_FIELDS[name].access === 'writable',
);

export function isWritableField(key: string): key is WritableField {
  return (WRITABLE_FIELDS as readonly string[]).includes(key);
}

/** The description of a field named in a request, if it is one (never a prototype's property). */
export function fieldNamed(key: string): EventFieldDescription | undefined {
  return Object.hasOwn(EVENT_FIELDS, key) ? EVENT_FIELDS[key as EventField] : undefined;
}

/**
 * Read-only on update (D6): every field but the writable ones, and `event_dates`, the other name of
 * `eventDates`. Sent back unchanged they are ignored; changed, a 400.
 */
export const READ_ONLY_FIELDS = [
  ...FIELD_NAMES.filter((name): name is Exclude<EventField, WritableField> => !isWritableField(name)),
  'event_dates',
] as const;
export type ReadOnlyField = (typeof READ_ONLY_FIELDS)[number];

/** What a field holds on a new event, and after a `null` clears it (D6). */
export function clearedValue(field: EventFieldDescription): unknown {
  switch (field.kind) {
    case 'text':
      return field.whenNull === 'null' ? null : '';
    case 'count':
      return field.whenNull === 'null' ? null : 0;
    case 'deadline':
      return null;
    case 'budget':
    case 'accommodations':
      return {};
    case 'textList':
    case 'locations':
    case 'dateRanges':
    case 'sessions':
      return [];
    default:
      // Set by the service on create (id, status, currency, timestamps): there is no empty one.
      return undefined;
  }
}

// The table and the interface of types.ts must agree, field by field: a kind (or an `whenNull: 'null'`)
// that does not match the declared type fails to compile, naming the field.
type ValueOf<Field extends EventFieldDescription> =
  | KindValues[Field['kind']]
  | (Field extends { whenNull: 'null' } ? null : never);
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Disagreeing = {
  [Name in EventField]: Same<EventDetails[Name], ValueOf<EventFields[Name]>> extends true ? never : Name;
}[EventField];
type Holds<Condition extends true> = Condition;
export type TableAgreesWithEventDetails = Holds<
  [Disagreeing] extends [never] ? true : { disagreeing: Disagreeing }
>;
