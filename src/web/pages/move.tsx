/** The second step of a D16 move: a confirmation with a button of the same name (and the comment or reason). */
import type { ChecklistItem } from '../../domain/errors.js';
import { MOVE_LABELS, MOVE_NOTE_FIELD, type Move } from '../../domain/moves.js';
import type { EventStatus } from '../../domain/types.js';
import { statusLabel } from '../format.js';
import { CsrfField, ErrorSummary, type Frame, fieldId, Layout, TextArea } from './layout.js';

const EXPLANATIONS: Record<Move, string> = {
  request_approval: 'Your approvers will be asked to approve the event before it goes to venues.',
  send_to_venues: 'The event goes to venues for proposals.',
  approve_and_send: 'You approve the event and it goes to venues for proposals.',
  return_to_draft: 'The event goes back to draft. Say what needs to change.',
  proposals_received: 'Venues have sent their proposals.',
  mark_booked: 'A venue is booked.',
  mark_completed: 'The event has taken place.',
  cancel: 'The event is cancelled. It can be reopened later, back to the status it has now.',
  reopen: 'The event returns to the status it had before it was cancelled.',
};

export interface MoveModel {
  eventId: string;
  eventName: string;
  status: EventStatus;
  move: Move;
  note: string;
  problems: Array<{ field: string; message: string }>;
  /** Checklist items that blocked the move, each linking to its field. */
  missing: ChecklistItem[];
  /** Why the move could not be made (another move came first, or it is not this person's to make). */
  refusal?: string;
}

export function MovePage(props: { frame: Frame; model: MoveModel }) {
  const { model } = props;
  const label = MOVE_LABELS[model.move];
  const noteField = MOVE_NOTE_FIELD[model.move];
  const errors = new Map<string, string[]>();
  for (const problem of model.problems)
    errors.set(problem.field, [...(errors.get(problem.field) ?? []), problem.message]);
  return (
    <Layout frame={props.frame} title={`${label}: ${model.eventName}`}>
      <h1>
        {label}: {model.eventName}
      </h1>
      <p>
        The event is now <strong>{statusLabel(model.status)}</strong>. {EXPLANATIONS[model.move]}
      </p>
      {model.refusal && (
        <div class="error-summary" role="alert" tabIndex={-1}>
          <h2>This move was not made</h2>
          <p>{model.refusal}</p>
        </div>
      )}
      {model.missing.length > 0 && (
        <div class="error-summary" role="alert" tabIndex={-1}>
          <h2>The event is not ready to send; nothing changed</h2>
          <ul>
            {model.missing.map((item) => (
              <li>
                <a href={`/app/events/${model.eventId}/edit#${fieldId(item.field)}`}>{item.message}</a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ErrorSummary
        problems={model.problems}
        labels={(name) => (name === 'comment' ? 'Comment' : 'Reason')}
      />
      <form method="post" action={`/app/events/${model.eventId}/moves/${model.move}`} novalidate>
        <CsrfField token={props.frame.csrf} />
        {noteField && (
          <TextArea
            name={noteField}
            label={noteField === 'comment' ? 'Comment' : 'Reason'}
            value={model.note}
            errors={errors}
            hint="Required. Kept in the event's history."
          />
        )}
        <div class="form-actions">
          <button type="submit" class={model.move === 'cancel' ? 'danger' : 'primary'}>
            {label}
          </button>
          <a href={`/app/events/${model.eventId}`}>Back to the event</a>
        </div>
      </form>
    </Layout>
  );
}
