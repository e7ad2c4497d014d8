/** The markup of "New event" and "Edit details": every writable field but the room block and the agenda. */
import type { OrphanedSession } from '../../../domain/errors.js';
import {
  EVENT_FIELDS,
  type EventFieldDescription,
  fieldNamed,
  type WritableField,
} from '../../../domain/event-field-table.js';
import { BUDGET_CATEGORIES, type EventDetails } from '../../../domain/types.js';
import { BUDGET_LABELS, day } from '../../format.js';
import {
  DETAILS_FORM_FIELDS,
  type FormBody,
  type FormProblem,
  field,
  fieldId,
  problemsByField,
} from '../../forms.js';
import { href } from '../../href.js';
import { CsrfField, ErrorSummary, ErrorText, type Frame, Layout, TextArea, TextField } from '../../layout.js';

/** A person's name for a field path: `budgetBreakdown.venue` → "Budget: Venue", `formattedLocations[1].city` → "Candidate city 2: city". */
export function fieldLabel(path: string): string {
  const row = /^(\w+)\[(\d+)\]\.?(.*)$/.exec(path);
  const rowOf = row ? fieldNamed(row[1]!) : undefined;
  if (row && rowOf?.itemLabel) {
    return `${rowOf.itemLabel} ${Number(row[2]) + 1}${row[3] ? `: ${row[3]}` : ''}`;
  }
  const budget = /^budgetBreakdown\.(\w+)$/.exec(path);
  if (budget) return `${EVENT_FIELDS.budgetBreakdown.label}: ${BUDGET_LABELS[budget[1]!] ?? budget[1]}`;
  return fieldNamed(path)?.label ?? path;
}

/** The form's values: from what was posted (after a refusal), else from the event. */
export type FormValues = FormBody;

/** The event's values in the details form's controls, each field written as its kind is typed. */
export function valuesOf(details: EventDetails): FormValues {
  const values: FormValues = { currency: details.currency };
  for (const name of DETAILS_FORM_FIELDS) {
    const field: EventFieldDescription = EVENT_FIELDS[name];
    switch (field.kind) {
      case 'text':
      case 'deadline':
        values[name] = (details[name] as string | null) ?? '';
        break;
      case 'count': {
        const count = details[name] as number | null;
        values[name] = count === null ? '' : String(count);
        break;
      }
      case 'textList':
        values[name] = (details[name] as string[]).join('\n');
        break;
      case 'budget':
        for (const category of BUDGET_CATEGORIES) {
          const amount = details.budgetBreakdown[category];
          values[`${name}.${category}`] = amount === undefined ? '' : String(amount);
        }
        break;
      case 'locations':
        details.formattedLocations.forEach((location, index) => {
          values[`${name}[${index}].city`] = location.city;
          values[`${name}[${index}].state`] = location.state ?? '';
          values[`${name}[${index}].country`] = location.country ?? '';
        });
        break;
      case 'dateRanges':
        details.meetingRoomDates.forEach((range, index) => {
          values[`${name}[${index}].startDate`] = range.startDate;
          values[`${name}[${index}].endDate`] = range.endDate;
        });
        break;
    }
  }
  return values;
}

/**
 * One field of the table as the control its kind calls for, with the table's label and hint: a line
 * of text, a text area (notes, and lists typed one per line) or a number.
 */
function FieldControl(props: { name: SingleControlField; value: string; errors: Map<string, string[]> }) {
  const description: EventFieldDescription = EVENT_FIELDS[props.name];
  const common = {
    name: props.name,
    label: description.label,
    value: props.value,
    errors: props.errors,
    ...(description.hint ? { hint: description.hint } : {}),
  };
  if (description.multiline || description.kind === 'textList') return <TextArea {...common} />;
  return (
    <TextField
      {...common}
      {...(description.kind === 'count' ? { type: 'number' as const } : {})}
      {...(description.whenNull === 'refused' ? { required: true } : {})}
    />
  );
}

/** The fields typed in one control; the repeated groups and the budget have fieldsets of their own. */
type SingleControlField =
  | 'currency'
  | Exclude<WritableField, 'formattedLocations' | 'budgetBreakdown' | 'meetingRoomDates' | 'accommodations'>;

/** How many rows a repeated group shows: those with values, plus `spare` empty ones to add to it. */
function rowCount(values: FormValues, group: string, spare: number): number {
  let highest = -1;
  for (const name of Object.keys(values)) {
    const match = new RegExp(`^${group}\\[(\\d+)\\]`).exec(name);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return highest + 1 + spare;
}

export interface EventFormModel {
  mode: 'create' | 'edit';
  /** The event edited (edit mode). */
  eventId?: string;
  eventName?: string;
  values: FormValues;
  /** The version the form was read at (edit mode), sent back to detect changes made meanwhile. */
  version?: string;
  problems: FormProblem[];
  /** The 409 of a change to meeting-room dates that would strand sessions. */
  orphans?: OrphanedSession[];
  /** Set when the event changed since the form was read: nothing was written. */
  stale?: boolean;
  /** Why nothing was written, when no field is to blame. */
  refusal?: string;
}

export function EventFormPage(props: { frame: Frame; model: EventFormModel }) {
  const { model } = props;
  const values = model.values;
  const errors = problemsByField(model.problems);
  const value = (name: string) => field(values, name);
  const title = model.mode === 'create' ? 'New event' : `Edit ${model.eventName ?? 'event'}`;
  const action = model.eventId === undefined ? href.newEvent() : href.editEvent(model.eventId);
  const locationRows = rowCount(values, 'formattedLocations', 2);
  const rangeRows = rowCount(values, 'meetingRoomDates', 1);
  const groupErrors = (group: string) => errors.get(group);
  return (
    <Layout frame={props.frame} title={title} scripts={[props.frame.assets.placesScript]}>
      <h1>{title}</h1>
      {model.stale && model.eventId && (
        <div class="error-summary" role="alert" tabIndex={-1}>
          <h2>This event changed since you opened the form</h2>
          <p>
            Someone else saved a change meanwhile (in the dashboard or through the API), so nothing of yours
            was saved. Your entries are below; check them against the{' '}
            <a href={href.event(model.eventId)}>event as it is now</a> and save again to apply them.
          </p>
        </div>
      )}
      {model.refusal && (
        <div class="error-summary" role="alert" tabIndex={-1}>
          <h2>Nothing was saved</h2>
          <p>{model.refusal}</p>
        </div>
      )}
      {model.orphans && model.orphans.length > 0 && model.eventId && (
        <div class="error-summary" role="alert" tabIndex={-1}>
          <h2>These sessions would lose their days; nothing was saved</h2>
          <p>
            The new meeting-room dates leave agenda sessions without some of their days. Move or remove them
            on the <a href={href.agenda(model.eventId)}>agenda</a>, or tick them below to remove them with
            this save.
          </p>
          <ul>
            {model.orphans.map((orphan) => (
              <li>
                <label class="checkbox">
                  <input type="checkbox" name="removeSession" value={orphan.sessionId} form="event-form" />
                  Remove “{orphan.title}”
                </label>{' '}
                — {orphan.fullyOrphaned ? 'none of its days remain' : 'loses'}{' '}
                {orphan.droppedDates.map(day).join(', ')}
              </li>
            ))}
          </ul>
        </div>
      )}
      <ErrorSummary problems={model.problems} labels={fieldLabel} />
      <form
        method="post"
        action={action}
        id="event-form"
        novalidate
        data-place-suggestions={href.placeSuggestions()}
      >
        <CsrfField token={props.frame.csrf} />
        {model.version && <input type="hidden" name="version" value={model.version} />}
        <fieldset>
          <legend>The event</legend>
          <FieldControl name="name" value={value('name')} errors={errors} />
          {model.mode === 'create' && (
            <FieldControl name="currency" value={value('currency') || 'USD'} errors={errors} />
          )}
          <FieldControl name="numPeople" value={value('numPeople')} errors={errors} />
          <FieldControl name="decisionDeadline" value={value('decisionDeadline')} errors={errors} />
          <FieldControl name="flexibility" value={value('flexibility')} errors={errors} />
        </fieldset>
        <fieldset id={fieldId('formattedLocations')}>
          <legend>{EVENT_FIELDS.formattedLocations.label}</legend>
          <ErrorText id={fieldId('formattedLocations')} messages={groupErrors('formattedLocations')} />
          {Array.from({ length: locationRows }, (_, index) => (
            <div class="row-group" id={fieldId(`formattedLocations[${index}]`)}>
              <ErrorText
                id={fieldId(`formattedLocations[${index}]`)}
                messages={groupErrors(`formattedLocations[${index}]`)}
              />
              <TextField
                name={`formattedLocations[${index}].city`}
                label={`City ${index + 1}`}
                value={value(`formattedLocations[${index}].city`)}
                errors={errors}
              />
              <TextField
                name={`formattedLocations[${index}].state`}
                label={`State or region ${index + 1}`}
                value={value(`formattedLocations[${index}].state`)}
                errors={errors}
              />
              <TextField
                name={`formattedLocations[${index}].country`}
                label={`Country ${index + 1}`}
                value={value(`formattedLocations[${index}].country`)}
                errors={errors}
              />
            </div>
          ))}
          <p class="hint">{EVENT_FIELDS.formattedLocations.hint}</p>
        </fieldset>
        <fieldset id={fieldId('budgetBreakdown')}>
          <legend>{EVENT_FIELDS.budgetBreakdown.label}</legend>
          <ErrorText id={fieldId('budgetBreakdown')} messages={groupErrors('budgetBreakdown')} />
          <p class="hint">{EVENT_FIELDS.budgetBreakdown.hint}</p>
          <div class="grid-fields">
            {BUDGET_CATEGORIES.map((category) => (
              <TextField
                name={`budgetBreakdown.${category}`}
                label={BUDGET_LABELS[category] ?? category}
                type="number"
                step="0.01"
                value={value(`budgetBreakdown.${category}`)}
                errors={errors}
              />
            ))}
          </div>
        </fieldset>
        <fieldset id={fieldId('meetingRoomDates')}>
          <legend>Meeting rooms</legend>
          <ErrorText id={fieldId('meetingRoomDates')} messages={groupErrors('meetingRoomDates')} />
          {Array.from({ length: rangeRows }, (_, index) => (
            <div class="row-group" id={fieldId(`meetingRoomDates[${index}]`)}>
              <ErrorText
                id={fieldId(`meetingRoomDates[${index}]`)}
                messages={groupErrors(`meetingRoomDates[${index}]`)}
              />
              <TextField
                name={`meetingRoomDates[${index}].startDate`}
                label={`Range ${index + 1}: first day`}
                type="date"
                value={value(`meetingRoomDates[${index}].startDate`)}
                errors={errors}
              />
              <TextField
                name={`meetingRoomDates[${index}].endDate`}
                label={`Range ${index + 1}: last day`}
                type="date"
                value={value(`meetingRoomDates[${index}].endDate`)}
                errors={errors}
              />
            </div>
          ))}
          <FieldControl name="numMeetingRoomsNeeded" value={value('numMeetingRoomsNeeded')} errors={errors} />
          <FieldControl name="meetingRooms" value={value('meetingRooms')} errors={errors} />
        </fieldset>
        <fieldset>
          <legend>Notes and requirements</legend>
          <FieldControl
            name="foodBeverageRequirements"
            value={value('foodBeverageRequirements')}
            errors={errors}
          />
          <FieldControl name="otherNotes" value={value('otherNotes')} errors={errors} />
          <FieldControl name="notesForVenue" value={value('notesForVenue')} errors={errors} />
          <FieldControl name="decisionFactors" value={value('decisionFactors')} errors={errors} />
          <FieldControl
            name="decisionFactorOtherText"
            value={value('decisionFactorOtherText')}
            errors={errors}
          />
          <FieldControl name="additionalServices" value={value('additionalServices')} errors={errors} />
        </fieldset>
        <div class="form-actions">
          <button type="submit" class="primary">
            Save
          </button>
          <a href={model.eventId ? href.event(model.eventId) : href.events()}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}
