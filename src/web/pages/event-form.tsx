/** "New event" and "Edit details": every writable field but the room block and the agenda. */
import type { OrphanedSession } from '../../domain/errors.js';
import { BUDGET_CATEGORIES, type EventDetails } from '../../domain/types.js';
import { day } from '../format.js';
import type { FormBody } from '../forms.js';
import { field, TEXT_FIELDS } from '../forms.js';
import { BUDGET_LABELS } from './event-page.js';
import {
  CsrfField,
  ErrorSummary,
  ErrorText,
  type Frame,
  fieldId,
  Layout,
  TextArea,
  TextField,
} from './layout.js';

const LABELS: Record<string, string> = {
  name: 'Name',
  currency: 'Currency',
  numPeople: 'Attendees',
  flexibility: 'Date flexibility',
  decisionDeadline: 'Decision deadline',
  numMeetingRoomsNeeded: 'Meeting rooms needed',
  foodBeverageRequirements: 'Food and beverage requirements',
  meetingRooms: 'Meeting-room notes',
  otherNotes: 'Other notes',
  notesForVenue: 'Notes for the venue',
  decisionFactors: 'Decision factors',
  decisionFactorOtherText: 'Other decision factor',
  additionalServices: 'Additional services',
  formattedLocations: 'Candidate cities',
  meetingRoomDates: 'Meeting-room dates',
  budgetBreakdown: 'Budget',
};

/** A person's name for a field path: `budgetBreakdown.venue` → "Budget: Venue", `formattedLocations[1].city` → "Candidate city 2: city". */
export function fieldLabel(path: string): string {
  const row = /^(formattedLocations|meetingRoomDates)\[(\d+)\]\.?(.*)$/.exec(path);
  if (row) {
    const what = row[1] === 'formattedLocations' ? 'Candidate city' : 'Meeting-room dates';
    return `${what} ${Number(row[2]) + 1}${row[3] ? `: ${row[3]}` : ''}`;
  }
  const budget = /^budgetBreakdown\.(\w+)$/.exec(path);
  if (budget) return `Budget: ${BUDGET_LABELS[budget[1]!] ?? budget[1]}`;
  return LABELS[path] ?? path;
}

/** The form's values: from what was posted (after a refusal), else from the event. */
export type FormValues = FormBody;

export function valuesOf(details: EventDetails): FormValues {
  const values: FormValues = {
    name: details.name,
    currency: details.currency,
    numPeople: String(details.numPeople),
    numMeetingRoomsNeeded:
      details.numMeetingRoomsNeeded === null ? '' : String(details.numMeetingRoomsNeeded),
    decisionFactors: details.decisionFactors.join('\n'),
    additionalServices: details.additionalServices.join('\n'),
  };
  for (const name of TEXT_FIELDS) values[name] = details[name] ?? '';
  for (const category of BUDGET_CATEGORIES) {
    const amount = details.budgetBreakdown[category];
    values[`budgetBreakdown.${category}`] = amount === undefined ? '' : String(amount);
  }
  details.formattedLocations.forEach((location, index) => {
    values[`formattedLocations[${index}].city`] = location.city;
    values[`formattedLocations[${index}].state`] = location.state ?? '';
    values[`formattedLocations[${index}].country`] = location.country ?? '';
  });
  details.meetingRoomDates.forEach((range, index) => {
    values[`meetingRoomDates[${index}].startDate`] = range.startDate;
    values[`meetingRoomDates[${index}].endDate`] = range.endDate;
  });
  return values;
}

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
  problems: Array<{ field: string; message: string }>;
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
  const errors = new Map<string, string[]>();
  for (const problem of model.problems)
    errors.set(problem.field, [...(errors.get(problem.field) ?? []), problem.message]);
  const value = (name: string) => field(values, name);
  const title = model.mode === 'create' ? 'New event' : `Edit ${model.eventName ?? 'event'}`;
  const action = model.mode === 'create' ? '/app/events/new' : `/app/events/${model.eventId}/edit`;
  const locationRows = rowCount(values, 'formattedLocations', 2);
  const rangeRows = rowCount(values, 'meetingRoomDates', 1);
  const groupErrors = (group: string) => errors.get(group);
  return (
    <Layout frame={props.frame} title={title} scripts={[props.frame.assets.placesScript]}>
      <h1>{title}</h1>
      {model.stale && (
        <div class="error-summary" role="alert" tabIndex={-1}>
          <h2>This event changed since you opened the form</h2>
          <p>
            Someone else saved a change meanwhile (in the dashboard or through the API), so nothing of yours
            was saved. Your entries are below; check them against the{' '}
            <a href={`/app/events/${model.eventId}`}>event as it is now</a> and save again to apply them.
          </p>
        </div>
      )}
      {model.refusal && (
        <div class="error-summary" role="alert" tabIndex={-1}>
          <h2>Nothing was saved</h2>
          <p>{model.refusal}</p>
        </div>
      )}
      {model.orphans && model.orphans.length > 0 && (
        <div class="error-summary" role="alert" tabIndex={-1}>
          <h2>These sessions would lose their days; nothing was saved</h2>
          <p>
            The new meeting-room dates leave agenda sessions without some of their days. Move or remove them
            on the <a href={`/app/events/${model.eventId}/agenda`}>agenda</a>, or tick them below to remove
            them with this save.
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
      <form method="post" action={action} id="event-form" novalidate>
        <CsrfField token={props.frame.csrf} />
        {model.version && <input type="hidden" name="version" value={model.version} />}
        <fieldset>
          <legend>The event</legend>
          <TextField
            name="name"
            label="Name"
            value={value('name')}
            errors={errors}
            required
            hint="Up to 100 characters."
          />
          {model.mode === 'create' && (
            <TextField
              name="currency"
              label="Currency"
              value={value('currency') || 'USD'}
              errors={errors}
              hint="ISO 4217 code, such as USD, EUR or GBP. It cannot be changed later."
            />
          )}
          <TextField
            name="numPeople"
            label="Attendees"
            type="number"
            value={value('numPeople')}
            errors={errors}
          />
          <TextField
            name="decisionDeadline"
            label="Decision deadline"
            value={value('decisionDeadline')}
            errors={errors}
            hint="A date (YYYY-MM-DD) or a date and time (e.g. 2027-01-15T17:00:00Z)."
          />
          <TextField
            name="flexibility"
            label="Date flexibility"
            value={value('flexibility')}
            errors={errors}
            hint="“Dates not flexible”, or say how flexible they are. Leave blank if not known."
          />
        </fieldset>
        <fieldset id={fieldId('formattedLocations')}>
          <legend>Candidate cities</legend>
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
          <p class="hint">
            Leave a row blank to leave it out; save to get more empty rows. A city that names one known place
            (with its country, as a name or a code such as PT) is matched to it when saved.
          </p>
        </fieldset>
        <fieldset id={fieldId('budgetBreakdown')}>
          <legend>Budget</legend>
          <ErrorText id={fieldId('budgetBreakdown')} messages={groupErrors('budgetBreakdown')} />
          <p class="hint">
            Amounts in the event's currency, at most two decimals. Leave blank for no such line.
          </p>
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
          <TextField
            name="numMeetingRoomsNeeded"
            label="Meeting rooms needed"
            type="number"
            value={value('numMeetingRoomsNeeded')}
            errors={errors}
          />
          <TextArea
            name="meetingRooms"
            label="Meeting-room notes"
            value={value('meetingRooms')}
            errors={errors}
          />
        </fieldset>
        <fieldset>
          <legend>Notes and requirements</legend>
          <TextArea
            name="foodBeverageRequirements"
            label="Food and beverage requirements"
            value={value('foodBeverageRequirements')}
            errors={errors}
          />
          <TextArea name="otherNotes" label="Other notes" value={value('otherNotes')} errors={errors} />
          <TextArea
            name="notesForVenue"
            label="Notes for the venue"
            value={value('notesForVenue')}
            errors={errors}
            hint="Shown to the venues."
          />
          <TextArea
            name="decisionFactors"
            label="Decision factors"
            value={value('decisionFactors')}
            errors={errors}
            hint="One per line."
          />
          <TextField
            name="decisionFactorOtherText"
            label="Other decision factor"
            value={value('decisionFactorOtherText')}
            errors={errors}
            hint="Used when “Other” is among the decision factors."
          />
          <TextArea
            name="additionalServices"
            label="Additional services"
            value={value('additionalServices')}
            errors={errors}
            hint="One per line."
          />
        </fieldset>
        <div class="form-actions">
          <button type="submit" class="primary">
            Save
          </button>
          <a href={model.eventId ? `/app/events/${model.eventId}` : '/app'}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}
