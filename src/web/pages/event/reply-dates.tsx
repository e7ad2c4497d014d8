/**
 * Moving reply dates (D28), the pages behind the Venues section's "Move the reply date" links:
 * - `/app/events/{id}/venues/{requestId}/reply-date`: one request's new date;
 * - `/app/events/{id}/venues/reply-dates`: one new date for every open request at once.
 * What moving does is said before it is done: the venue of an open request is told by mail, and its
 * reminder is set again for the new date.
 */
import { type EventView, personRequester, viewMyEvent } from '../../../app/planning.js';
import { moveOpenReplyDates, moveReplyDate } from '../../../app/venue-requests.js';
import {
  isClosedRequest,
  isOpenRequest,
  isSourcing,
  type VenueRequest,
} from '../../../domain/venue-request.js';
import { count, day } from '../../format.js';
import { type FormBody, type FormProblem, field, problemsByField } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import { CsrfField, ErrorAlert, ErrorSummary, type Frame, Layout, TextField } from '../../layout.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { replyDateProblemWords } from '../../problem-words.js';
import { shownAgain, submitForm } from '../../submit-form.js';
import { venueFieldLabel } from '../../words.js';

/** The form's one field is the new reply date; anything else is named as the venue pages name it. */
const replyDateFieldLabel = (name: string) =>
  name === 'responseDueDate' ? 'New reply date' : venueFieldLabel(name);

type OneRequest = PageRequest<typeof ROUTES.moveReplyDate>;
type AllRequests = PageRequest<typeof ROUTES.moveReplyDates>;

interface Shown {
  values?: FormBody;
  problems?: FormProblem[];
  refusal?: string;
}

/** The requests a move is for: the one named, or every open request of the event. */
function movedRequests(view: EventView, requestId: string | undefined): VenueRequest[] {
  if (requestId === undefined) return view.requests.filter((request) => isOpenRequest(request.status));
  return view.requests.filter((request) => request.id === requestId);
}

async function movePage(
  page: OneRequest | AllRequests,
  requestId: string | undefined,
  shown: Shown,
  status = 200,
) {
  const view = await viewMyEvent(page.deps, page.person, page.params.id);
  const requests = movedRequests(view, requestId);
  // Taken off the shortlist meanwhile: the event page shows the list as it is.
  if (requestId !== undefined && requests.length === 0)
    return page.redirect(href.event(view.details.id, 'venues'));
  return page.render(
    ReplyDatePage({
      frame: page.frame(),
      model: {
        eventId: view.details.id,
        eventName: view.details.name,
        sourcing: isSourcing(view.details.status),
        one: requestId !== undefined,
        requests,
        values: shown.values ?? {},
        problems: shown.problems ?? [],
        ...(shown.refusal ? { refusal: shown.refusal } : {}),
      },
    }),
    status,
  );
}

const bodyOf = (form: FormBody) => ({ responseDueDate: field(form, 'responseDueDate').trim() || null });

export const replyDatePages: PageModule = [
  loader(ROUTES.moveReplyDate, (page) => movePage(page, page.params.requestId, {})),

  action(ROUTES.moveReplyDate, async (page) => {
    const { id, requestId } = page.params;
    return submitForm(page, {
      change: () => moveReplyDate(page.deps, personRequester(page.person), id, requestId, bodyOf(page.form)),
      done: () => page.redirect(href.event(id, 'venues'), 'reply-date-moved'),
      expects: { problems: true, words: replyDateProblemWords, refusal: true, gone: true, cancelled: true },
      again: (state, status) =>
        state.gone
          ? page.redirect(href.event(id, 'venues'))
          : movePage(page, requestId, shownAgain(page.form, state), status),
    });
  }),

  loader(ROUTES.moveReplyDates, (page) => movePage(page, undefined, {})),

  action(ROUTES.moveReplyDates, async (page) => {
    const { id } = page.params;
    return submitForm(page, {
      change: () => moveOpenReplyDates(page.deps, personRequester(page.person), id, bodyOf(page.form)),
      done: () => page.redirect(href.event(id, 'venues'), 'reply-dates-moved'),
      expects: { problems: true, words: replyDateProblemWords, refusal: true, cancelled: true },
      again: (state, status) => movePage(page, undefined, shownAgain(page.form, state), status),
    });
  }),
];

interface ReplyDateModel {
  eventId: string;
  eventName: string;
  /** False once the event is booked, completed or cancelled: no date moves any more. */
  sourcing: boolean;
  /** One request's date (true), or every open request's. */
  one: boolean;
  requests: VenueRequest[];
  values: FormBody;
  problems: FormProblem[];
  refusal?: string;
}

/** What moving does, said before it is done. */
function consequence(model: ReplyDateModel): string {
  if (!model.one) {
    return `Each of the ${count(model.requests.length)} venues still asked is told the new date by mail, with its link, and reminded again before it. Requests that are closed keep their date.`;
  }
  const request = model.requests[0]!;
  if (request.status === 'shortlisted')
    return `${request.venue.name} is on the shortlist: it is sent this date with its request, and nothing is sent now.`;
  return `${request.venue.name} is told the new date by mail, with its link, and reminded again before it. Until the new date has passed, its answer is not overdue.`;
}

function ReplyDatePage(props: { frame: Frame; model: ReplyDateModel }) {
  const { model } = props;
  const errors = problemsByField(model.problems);
  const first = model.requests[0];
  const title =
    model.one && first ? `Move the reply date of ${first.venue.name}` : 'Move every open reply date';
  const closed = model.one && first !== undefined && isClosedRequest(first.status);
  const action =
    model.one && first ? href.moveReplyDate(model.eventId, first.id) : href.moveReplyDates(model.eventId);
  return (
    <Layout frame={props.frame} title={`${title}: ${model.eventName}`}>
      <p class="breadcrumb">
        <a href={href.event(model.eventId, 'venues')}>{model.eventName}</a>
      </p>
      <h1>{title}</h1>
      {model.refusal && (
        <ErrorAlert>
          <h2>No date was moved</h2>
          <p>{model.refusal}</p>
        </ErrorAlert>
      )}
      <ErrorSummary problems={model.problems} labels={replyDateFieldLabel} />
      {!model.sourcing || closed ? (
        <p>
          {closed
            ? 'This request is closed: its reply date no longer matters.'
            : 'This event is booked, completed or cancelled: reply dates no longer move.'}{' '}
          <a href={href.event(model.eventId, 'venues')}>Back to the event</a>
        </p>
      ) : model.requests.length === 0 ? (
        <p>
          No request is open: there is no reply date to move.{' '}
          <a href={href.event(model.eventId, 'venues')}>Back to the event</a>
        </p>
      ) : (
        <>
          <p>{consequence(model)}</p>
          <ul>
            {model.requests.map((request) => (
              <li>
                {request.venue.name}:{' '}
                {request.responseDueDate ? `reply by ${day(request.responseDueDate)}` : 'no reply date yet'}
              </li>
            ))}
          </ul>
          <form method="post" action={action} novalidate>
            <CsrfField token={props.frame.csrf} />
            <TextField
              name="responseDueDate"
              label="New reply date"
              type="date"
              value={field(model.values, 'responseDueDate')}
              errors={errors}
              hint="The day the venue is asked to answer by: today or later."
            />
            <div class="form-actions">
              <button type="submit" class="primary">
                {model.one
                  ? 'Move the reply date'
                  : `Move the reply date of ${count(model.requests.length)} venues`}
              </button>
              <a href={href.event(model.eventId, 'venues')}>Cancel</a>
            </div>
          </form>
        </>
      )}
    </Layout>
  );
}
