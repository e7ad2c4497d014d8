/**
 * `/app/events/{id}/moves/{move}`: the second step of a D16 status move, a confirmation with a button
 * of the same name (and the comment or reason the move asks for).
 */
import { moveMyEvent, viewMyEvent } from '../../app/planning.js';
import type { ChecklistItem } from '../../domain/errors.js';
import { isMove, MOVE_LABELS, MOVE_NOTE_FIELD, type Move } from '../../domain/moves.js';
import type { EventStatus } from '../../domain/types.js';
import { statusLabel } from '../format.js';
import { type FormProblem, field, problemsByField } from '../forms.js';
import { href, ROUTES } from '../href.js';
import { CsrfField, ErrorSummary, type Frame, Layout, TextArea } from '../layout.js';
import { action, loader, type PageModule, type PageRequest } from '../page-module.js';
import { submitForm } from '../submit-form.js';

type MoveRequest = PageRequest<typeof ROUTES.move>;

async function movePage(page: MoveRequest, move: Move, model: Partial<MoveModel>, status = 200) {
  const view = await viewMyEvent(page.deps, page.person, page.params.id);
  return page.render(
    MovePage({
      frame: page.frame(),
      model: {
        eventId: view.details.id,
        eventName: view.details.name,
        status: view.details.status,
        move,
        note: '',
        problems: [],
        missing: [],
        ...model,
      },
    }),
    status,
  );
}

export const movePages: PageModule = [
  loader(ROUTES.move, async (page) => {
    const { move } = page.params;
    if (!isMove(move)) return page.notFound();
    return movePage(page, move, {});
  }),

  action(ROUTES.move, async (page) => {
    const { id, move } = page.params;
    if (!isMove(move)) return page.notFound();
    const noteField = MOVE_NOTE_FIELD[move];
    const note = noteField ? field(page.form, noteField) : undefined;
    return submitForm(page, {
      change: () => moveMyEvent(page.deps, page.person, id, { move, note }),
      done: () => page.redirect(href.event(id), 'moved'),
      expects: { problems: true, missing: true, refusal: true },
      again: (state, status) => movePage(page, move, { note: note ?? '', ...state }, status),
    });
  }),
];

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

interface MoveModel {
  eventId: string;
  eventName: string;
  status: EventStatus;
  move: Move;
  note: string;
  problems: FormProblem[];
  /** Checklist items that blocked the move, each linking to its field. */
  missing: ChecklistItem[];
  /** Why the move could not be made (another move came first, or it is not this person's to make). */
  refusal?: string;
}

function MovePage(props: { frame: Frame; model: MoveModel }) {
  const { model } = props;
  const label = MOVE_LABELS[model.move];
  const noteField = MOVE_NOTE_FIELD[model.move];
  const errors = problemsByField(model.problems);
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
                <a href={href.editEvent(model.eventId, item.field)}>{item.message}</a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ErrorSummary
        problems={model.problems}
        labels={(name) => (name === 'comment' ? 'Comment' : 'Reason')}
      />
      <form method="post" action={href.move(model.eventId, model.move)} novalidate>
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
          <a href={href.event(model.eventId)}>Back to the event</a>
        </div>
      </form>
    </Layout>
  );
}
