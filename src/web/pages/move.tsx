/**
 * `/app/events/{id}/moves/{move}`: the second step of a D16 status move, a confirmation with a button
 * of the same name (and the comment or reason the move asks for).
 */
import { moveMyEvent, viewMyEvent } from '../../app/planning.js';
import type { ChecklistItem } from '../../domain/errors.js';
import { isMove, MOVE_LABELS, MOVE_NOTE_FIELD, type Move } from '../../domain/moves.js';
import type { EventStatus } from '../../domain/types.js';
import { personName } from '../format.js';
import { type FormProblem, field, problemsByField } from '../forms.js';
import { checklistLink, href, ROUTES } from '../href.js';
import { CsrfField, ErrorAlert, ErrorSummary, type Frame, Layout, TextArea } from '../layout.js';
import { action, loader, type PageModule, type PageRequest } from '../page-module.js';
import { submitForm } from '../submit-form.js';
import { statusLabel, withReadableDates } from '../words.js';

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
        approvers: view.approvers.map((person) => personName(person)),
        shortlisted: view.requests
          .filter((request) => request.status === 'shortlisted')
          .map((request) => request.venue.name),
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

/** What the move will do, said before it is made: the page asks for confirmation. */
function consequence(model: MoveModel): string {
  const becomes = (status: EventStatus) => `Its status will become ${statusLabel(status)}.`;
  switch (model.move) {
    case 'request_approval': {
      const who = model.approvers.length > 0 ? listOf(model.approvers) : 'your approvers';
      return `This will ask ${who} to approve the event before it goes to venues. ${becomes('pending_approval')}`;
    }
    case 'send_to_venues':
      return `This will send the event to venues for their proposals. ${sending(model)} ${becomes('wait_for_proposals')}`;
    case 'approve_and_send':
      return `This will approve the event and send it to venues for their proposals. ${sending(model)} ${becomes('wait_for_proposals')}`;
    case 'return_to_draft':
      return `This will return the event to draft, to be changed and sent for approval again. ${becomes('draft')} Say what needs to change.`;
    case 'proposals_received':
      return `This will record that venues have sent their proposals. ${becomes('proposals_received')}`;
    case 'mark_booked':
      return `This will record that a venue is booked. ${becomes('booked')}`;
    case 'mark_completed':
      return `This will record that the event has taken place. ${becomes('completed')}`;
    case 'cancel':
      return `This will cancel the event: it cannot be changed until someone reopens it, back to ${statusLabel(model.status)}.`;
    case 'reopen':
      return 'This will reopen the event, back to the status it had before it was cancelled.';
  }
}

/** Who is sent a request when the event goes to venues (D21): every venue on its shortlist. */
function sending(model: MoveModel): string {
  const venues = model.shortlisted;
  if (venues.length === 0) return 'No venue is on the shortlist yet, so no request would be sent.';
  if (venues.length === 1)
    return `${venues[0]}, the venue on the shortlist, will be sent a request for proposals by mail, with a link to answer it.`;
  return `The ${venues.length} venues on the shortlist (${listOf(venues)}) will each be sent a request for proposals by mail, with a link to answer it.`;
}

/** "Ana", "Ana and Ben", "Ana, Ben and Cy". */
function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

interface MoveModel {
  eventId: string;
  eventName: string;
  status: EventStatus;
  /** The event's approvers, by name: who "Request approval" asks. */
  approvers: string[];
  /** The venues on the shortlist, by name: who is sent a request when the event goes to venues. */
  shortlisted: string[];
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
        The event is now <strong>{statusLabel(model.status)}</strong>. {consequence(model)}
      </p>
      {model.refusal && (
        <ErrorAlert>
          <h2>This move was not made</h2>
          <p>
            {model.refusal} The event is now {statusLabel(model.status)}.
          </p>
        </ErrorAlert>
      )}
      {model.missing.length > 0 && (
        <ErrorAlert>
          <h2>The event is not ready to send; nothing changed</h2>
          <ul>
            {model.missing.map((item) => (
              <li>
                <a href={checklistLink(model.eventId, item.field)}>{withReadableDates(item.message)}</a>
              </li>
            ))}
          </ul>
        </ErrorAlert>
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
