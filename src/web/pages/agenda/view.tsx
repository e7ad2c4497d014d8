/** The agenda's markup: the sessions day by day with a form to add one, and the form that edits one. */
import { dayNumber } from '../../../domain/dates.js';
import type { AgendaItem } from '../../../domain/types.js';
import { AgendaByDay } from '../../agenda-by-day.js';
import { day } from '../../format.js';
import { type FormBody, type FormProblem, field, fieldId, problemsByField } from '../../forms.js';
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
import { sessionLabel } from '../../words.js';

export function sessionValues(session: AgendaItem): FormBody {
  return {
    title: session.title,
    dates: session.dates,
    startTime: session.startTime,
    endTime: session.endTime,
    roomType: session.roomType,
    capacity: String(session.capacity),
    avRequirements: session.avRequirements.join('\n'),
    fbRequirements: session.fbRequirements.join('\n'),
    avOtherText: session.avOtherText,
    fbOtherText: session.fbOtherText,
    notes: session.notes,
  };
}

function SessionFields(props: { values: FormBody; errors: Map<string, string[]>; meetingDays: string[] }) {
  const { values, errors } = props;
  const value = (name: string) => field(values, name);
  const chosen = new Set(Array.isArray(values.dates) ? values.dates : values.dates ? [values.dates] : []);
  // A posted day that is not a date is named by its problem, not offered as a box.
  const days = [...new Set([...props.meetingDays, ...chosen])]
    .filter((date) => dayNumber(date) !== undefined)
    .sort();
  const datesId = fieldId('dates');
  return (
    <>
      <TextField name="title" label="Title" value={value('title')} errors={errors} required />
      <fieldset id={datesId} aria-describedby={errors.get('dates') ? `${datesId}-error` : undefined}>
        <legend>Days</legend>
        <ErrorText id={datesId} messages={errors.get('dates')} />
        {days.length === 0 ? (
          <p class="hint">The event has no meeting-room dates yet: set them under “Edit details” first.</p>
        ) : (
          <div class="checkbox-row">
            {days.map((date) => (
              <label class="checkbox">
                <input type="checkbox" name="dates" value={date} checked={chosen.has(date)} />
                {day(date)}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      {/* Drawn as text with a 24-hour pattern (typed-controls.ts): a time control shows the reader's 12-hour form. */}
      <div class="inline-fields">
        <TextField
          name="startTime"
          type="time"
          label="Start time"
          value={value('startTime')}
          errors={errors}
          required
          hint="24-hour, e.g. 09:30"
          autocomplete="off"
        />
        <TextField
          name="endTime"
          type="time"
          label="End time"
          value={value('endTime')}
          errors={errors}
          required
          hint="24-hour, e.g. 17:00"
          autocomplete="off"
        />
      </div>
      <TextField
        name="roomType"
        label="Room type"
        value={value('roomType')}
        errors={errors}
        hint="For example: plenary, breakout, boardroom."
      />
      <TextField
        name="capacity"
        label="Expected attendees"
        type="number"
        value={value('capacity')}
        errors={errors}
      />
      <TextArea
        name="avRequirements"
        label="AV requirements"
        value={value('avRequirements')}
        errors={errors}
        hint="One per line."
      />
      <TextField name="avOtherText" label="Other AV needs" value={value('avOtherText')} errors={errors} />
      <TextArea
        name="fbRequirements"
        label="Food and beverage requirements"
        value={value('fbRequirements')}
        errors={errors}
        hint="One per line."
      />
      <TextField
        name="fbOtherText"
        label="Other food and beverage needs"
        value={value('fbOtherText')}
        errors={errors}
      />
      <TextArea name="notes" label="Notes" value={value('notes')} errors={errors} />
    </>
  );
}

/** A session's form, to add one or to edit one: the session's fields and Save (and Cancel when editing). */
function SessionForm(props: {
  action: string;
  csrf: string;
  model: { version: string; values: FormBody; problems: FormProblem[]; meetingDays: string[] };
  cancel?: string;
}) {
  const { model } = props;
  return (
    <form method="post" action={props.action} novalidate>
      <CsrfField token={props.csrf} />
      <input type="hidden" name="version" value={model.version} />
      <SessionFields
        values={model.values}
        errors={problemsByField(model.problems)}
        meetingDays={model.meetingDays}
      />
      <div class="form-actions">
        <button type="submit" class="primary">
          Save
        </button>
        {props.cancel && <a href={props.cancel}>Cancel</a>}
      </div>
    </form>
  );
}

export interface AgendaModel {
  eventId: string;
  eventName: string;
  version: string;
  agenda: AgendaItem[];
  meetingDays: string[];
  /** The add form's values and problems (after a refusal). */
  values: FormBody;
  problems: FormProblem[];
  stale?: boolean;
}

function StaleNotice() {
  return (
    <ErrorAlert>
      <h2>This event changed since you opened this page</h2>
      <p>
        Someone else saved a change meanwhile, so nothing of yours was saved. Check the agenda below and try
        again.
      </p>
    </ErrorAlert>
  );
}

export function AgendaPage(props: { frame: Frame; model: AgendaModel; notice?: string | undefined }) {
  const { model } = props;
  return (
    <Layout frame={props.frame} title={`Agenda: ${model.eventName}`} notice={props.notice}>
      <h1>Agenda of {model.eventName}</h1>
      <p>
        <a href={href.event(model.eventId)}>Back to the event</a>
      </p>
      {model.stale && <StaleNotice />}
      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <AgendaByDay
          agenda={model.agenda}
          session={(session) => (
            <>
              <strong>{session.title}</strong>{' '}
              <a href={href.agendaSession(model.eventId, session.id)} aria-label={`Edit “${session.title}”`}>
                Edit
              </a>{' '}
              <form method="post" action={href.removeAgendaSession(model.eventId, session.id)} class="inline">
                <CsrfField token={props.frame.csrf} />
                <input type="hidden" name="version" value={model.version} />
                <button type="submit" class="link-button danger" aria-label={`Remove “${session.title}”`}>
                  Remove
                </button>
              </form>
            </>
          )}
        />
      </section>
      <section aria-labelledby="add-session-title">
        <h2 id="add-session-title">Add a session</h2>
        <ErrorSummary problems={model.problems} labels={sessionLabel} />
        <SessionForm action={href.agenda(model.eventId)} csrf={props.frame.csrf} model={model} />
      </section>
    </Layout>
  );
}

export interface SessionEditModel {
  eventId: string;
  eventName: string;
  sessionId: string;
  version: string;
  meetingDays: string[];
  values: FormBody;
  problems: FormProblem[];
  stale?: boolean;
}

export function SessionEditPage(props: { frame: Frame; model: SessionEditModel }) {
  const { model } = props;
  return (
    <Layout frame={props.frame} title={`Edit session: ${model.eventName}`}>
      <h1>Edit a session of {model.eventName}</h1>
      {model.stale && <StaleNotice />}
      <ErrorSummary problems={model.problems} labels={sessionLabel} />
      <SessionForm
        action={href.agendaSession(model.eventId, model.sessionId)}
        csrf={props.frame.csrf}
        model={model}
        cancel={href.agenda(model.eventId)}
      />
    </Layout>
  );
}
