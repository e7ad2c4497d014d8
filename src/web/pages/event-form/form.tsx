/** The markup of "New event" and "Edit details": every writable field but the room block and the agenda. */

import { isCalendarDate } from '../../../domain/dates.js';
import type { OrphanedSession } from '../../../domain/errors.js';
import {
  EVENT_FIELDS,
  type EventFieldDescription,
  type WritableField,
} from '../../../domain/event-field-table.js';
import { BUDGET_CATEGORIES, type EventDetails } from '../../../domain/types.js';
import { day } from '../../format.js';
import {
  DETAILS_FORM_FIELDS,
  type FormBody,
  type FormProblem,
  field,
  fieldId,
  problemsByField,
} from '../../forms.js';
import { href } from '../../href.js';
import {
  CsrfField,
  ErrorAlert,
  ErrorSummary,
  ErrorText,
  type Frame,
  Layout,
  TextArea,
  TextField,
} from '../../layout.js';
import { BUDGET_LABELS, fieldLabel } from '../../words.js';

/** The form's values: from what was posted (after a refusal), else from the event. */
export type FormValues = FormBody;

/** The event's values in the details form's controls, each field written as its kind is typed. */
export function valuesOf(details: EventDetails): FormValues {
  const values: FormValues = { currency: details.currency };
  for (const name of DETAILS_FORM_FIELDS) {
    const field: EventFieldDescription = EVENT_FIELDS[name];
    switch (field.kind) {
      case 'text':
        values[name] = (details[name] as string | null) ?? '';
        break;
      case 'deadline':
        Object.assign(values, deadlineValues(name, details.decisionDeadline));
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

/** How many rows of a repeated group hold something typed (blank rows after them do not count). */
function filledRows(values: FormValues, group: string): number {
  let highest = -1;
  for (const [name, value] of Object.entries(values)) {
    const match = new RegExp(`^${group}\\[(\\d+)\\]`).exec(name);
    const typed = (Array.isArray(value) ? value : [value ?? '']).some((text) => text.trim() !== '');
    if (match && typed) highest = Math.max(highest, Number(match[1]));
  }
  return highest + 1;
}

/**
 * The rows of a repeated group: every filled one (at least one, to start with), then `spare` empty
 * ones behind "Add …", a native disclosure: closed, its controls take no Tab stop, and it needs no script.
 */
function Rows(props: {
  group: string;
  values: FormValues;
  spare: number;
  addLabel: string;
  row: (index: number) => preact.ComponentChildren;
}) {
  const shown = Math.max(1, filledRows(props.values, props.group));
  const index = (offset: number, count: number) => Array.from({ length: count }, (_, n) => offset + n);
  return (
    <>
      {index(0, shown).map(props.row)}
      <details class="more-rows">
        <summary>{props.addLabel}</summary>
        {index(shown, props.spare).map(props.row)}
      </details>
    </>
  );
}

/** The decision deadline as its two controls: a date, and a time (UTC) only when one is stored or typed. */
function deadlineValues(name: string, stored: string | null): FormValues {
  if (stored === null) return { [name]: '', [`${name}Time`]: '' };
  if (isCalendarDate(stored)) return { [name]: stored, [`${name}Time`]: '' };
  const utc = new Date(stored).toISOString();
  // The stored text goes back with the form: unchanged, it is sent as stored (its offset and seconds kept).
  return { [name]: utc.slice(0, 10), [`${name}Time`]: utc.slice(11, 16), [`${name}Stored`]: stored };
}

function DeadlineControl(props: { values: FormValues; errors: Map<string, string[]> }) {
  const name = 'decisionDeadline';
  const description = EVENT_FIELDS[name];
  const time = field(props.values, `${name}Time`);
  const stored = field(props.values, `${name}Stored`);
  const timeField = (
    <TextField
      name={`${name}Time`}
      type="time"
      label="Time (UTC)"
      value={time}
      errors={props.errors}
      hint="24-hour, e.g. 17:00. Leave blank for the whole day."
      autocomplete="off"
    />
  );
  return (
    <div class="deadline">
      <TextField
        name={name}
        label={description.label}
        type="date"
        value={field(props.values, name)}
        errors={props.errors}
        {...(description.hint ? { hint: description.hint } : {})}
      />
      {stored && <input type="hidden" name={`${name}Stored`} value={stored} />}
      {time !== '' || stored || props.errors.has(`${name}Time`) ? (
        timeField
      ) : (
        <details class="more-rows">
          <summary>Add a time</summary>
          {timeField}
        </details>
      )}
    </div>
  );
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
  const groupErrors = (group: string) => errors.get(group);
  return (
    <Layout frame={props.frame} title={title} scripts={[props.frame.assets.placesScript]}>
      <h1>{title}</h1>
      {model.stale && model.eventId && (
        <ErrorAlert>
          <h2>This event changed since you opened the form</h2>
          <p>
            Someone else saved a change meanwhile (in the dashboard or through the API), so nothing of yours
            was saved. Your entries are below; check them against the{' '}
            <a href={href.event(model.eventId)}>event as it is now</a> and save again to apply them.
          </p>
        </ErrorAlert>
      )}
      {model.refusal && (
        <ErrorAlert>
          <h2>Nothing was saved</h2>
          <p>{model.refusal}</p>
        </ErrorAlert>
      )}
      {model.orphans && model.orphans.length > 0 && model.eventId && (
        <ErrorAlert>
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
        </ErrorAlert>
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
          <DeadlineControl values={values} errors={errors} />
          <FieldControl name="flexibility" value={value('flexibility')} errors={errors} />
        </fieldset>
        <fieldset id={fieldId('formattedLocations')}>
          <legend>{EVENT_FIELDS.formattedLocations.label}</legend>
          <ErrorText id={fieldId('formattedLocations')} messages={groupErrors('formattedLocations')} />
          <Rows
            group="formattedLocations"
            values={values}
            spare={2}
            addLabel="Add another city"
            row={(index) => (
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
            )}
          />
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
          <Rows
            group="meetingRoomDates"
            values={values}
            spare={1}
            addLabel="Add another date range"
            row={(index) => (
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
            )}
          />
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
