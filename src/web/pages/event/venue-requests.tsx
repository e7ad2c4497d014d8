/**
 * The event's venues (D21), the pages behind its "Venues" section:
 * - `/app/events/{id}/venues/add`: a venue of the directory chosen (searched by name or city) with an
 *   optional reply date, put on the shortlist, or sent its request at once once the event is out;
 * - `/app/events/{id}/venues/{requestId}/withdraw`: what withdrawing does, then doing it (a shortlisted
 *   venue is taken off the list; an asked one is told by mail).
 */
import { personRequester, viewMyEvent } from '../../../app/planning.js';
import { addVenueRequest, withdrawVenueRequest } from '../../../app/venue-requests.js';
import { listVenues, VENUE_SEARCH_MAX } from '../../../app/venues.js';
import type { Venue } from '../../../domain/venue.js';
import { isClosedRequest, isSourcing, type VenueRequest } from '../../../domain/venue-request.js';
import { count } from '../../format.js';
import { type FormBody, type FormProblem, field, fieldId, problemsByField } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import {
  CsrfField,
  ErrorAlert,
  ErrorSummary,
  ErrorText,
  type Frame,
  Layout,
  TextField,
} from '../../layout.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { venuePlaceWords } from '../../place-words.js';
import { venueRequestProblemWords } from '../../problem-words.js';
import { shownAgain, submitForm } from '../../submit-form.js';
import { requestStatusLabel, venueFieldLabel } from '../../words.js';
import { addsToShortlist, defaultReplyBy, whatAddingDoes } from './venues-section.js';

/** Venues offered at once; a search narrows a larger directory. */
const SHOWN = 50;

type AddRequest = PageRequest<typeof ROUTES.addEventVenue>;

interface AddShown {
  values?: FormBody;
  problems?: FormProblem[];
  refusal?: string;
}

async function addPage(page: AddRequest, search: string, shown: AddShown, status = 200) {
  const view = await viewMyEvent(page.deps, page.person, page.params.id);
  const found = isSourcing(view.details.status)
    ? await listVenues(page.deps, page.person, { q: search, page: 1, limit: SHOWN })
    : { data: [], total: 0 };
  return page.render(
    AddVenuePage({
      frame: page.frame(),
      model: {
        eventId: view.details.id,
        eventName: view.details.name,
        adding: whatAddingDoes(view.details.status),
        shortlist: addsToShortlist(view.details.status),
        defaultReplyBy: defaultReplyBy(view),
        asked: new Map(view.requests.map((request) => [request.venue.id, request])),
        venues: found.data,
        total: found.total,
        search,
        values: shown.values ?? {},
        problems: shown.problems ?? [],
        ...(shown.refusal ? { refusal: shown.refusal } : {}),
      },
    }),
    status,
  );
}

const searchOf = (text: unknown) =>
  typeof text === 'string' ? [...text].slice(0, VENUE_SEARCH_MAX).join('') : '';

type WithdrawRequest = PageRequest<typeof ROUTES.withdrawRequest>;

async function withdrawPage(page: WithdrawRequest, refusal?: string, status = 200) {
  const view = await viewMyEvent(page.deps, page.person, page.params.id);
  const request = view.requests.find((candidate) => candidate.id === page.params.requestId);
  // Taken off the shortlist meanwhile (by this very form, sent twice): the event page shows the list.
  if (!request) return page.redirect(href.event(view.details.id, 'venues'));
  return page.render(
    WithdrawPage({
      frame: page.frame(),
      model: { eventId: view.details.id, eventName: view.details.name, request, refusal },
    }),
    status,
  );
}

export const venueRequestPages: PageModule = [
  loader(ROUTES.addEventVenue, (page) => addPage(page, searchOf(page.query.q), {})),

  action(ROUTES.addEventVenue, async (page) => {
    const { id } = page.params;
    const responseDueDate = field(page.form, 'responseDueDate').trim();
    const body = {
      venueId: field(page.form, 'venueId') || null,
      ...(responseDueDate === '' ? {} : { responseDueDate }),
    };
    const search = searchOf(field(page.form, 'q'));
    return submitForm(page, {
      change: () => addVenueRequest(page.deps, personRequester(page.person), id, body),
      done: (request) =>
        page.redirect(
          href.event(id, 'venues'),
          request.status === 'shortlisted' ? 'venue-shortlisted' : 'venue-sent',
        ),
      expects: { problems: true, words: venueRequestProblemWords, refusal: true, cancelled: true },
      again: (state, status) => addPage(page, search, shownAgain(page.form, state), status),
    });
  }),

  loader(ROUTES.withdrawRequest, (page) => withdrawPage(page)),

  action(ROUTES.withdrawRequest, async (page) => {
    const { id, requestId } = page.params;
    return submitForm(page, {
      change: () => withdrawVenueRequest(page.deps, personRequester(page.person), id, requestId),
      done: (result) =>
        page.redirect(href.event(id, 'venues'), result.removed ? 'shortlist-removed' : 'request-withdrawn'),
      expects: { refusal: true, gone: true, cancelled: true },
      again: (state, status) =>
        state.gone ? page.redirect(href.event(id, 'venues')) : withdrawPage(page, state.refusal, status),
    });
  }),
];

interface AddVenueModel {
  eventId: string;
  eventName: string;
  /** What adding does now; undefined once venues can no longer be asked. */
  adding: string | undefined;
  /** True while the event is a draft or waits for approval: the venue goes on the shortlist. */
  shortlist: boolean;
  defaultReplyBy: string;
  /** The venues the event already asked, by venue id. */
  asked: Map<string, VenueRequest>;
  venues: Venue[];
  total: number;
  search: string;
  values: FormBody;
  problems: FormProblem[];
  refusal?: string;
}

function AddVenuePage(props: { frame: Frame; model: AddVenueModel }) {
  const { model } = props;
  const errors = problemsByField(model.problems);
  const title = model.shortlist ? 'Add a venue to the shortlist' : 'Ask another venue';
  const chosen = field(model.values, 'venueId');
  const venueErrors = errors.get('venueId');
  return (
    <Layout frame={props.frame} title={`${title}: ${model.eventName}`}>
      <p class="breadcrumb">
        <a href={href.event(model.eventId, 'venues')}>{model.eventName}</a>
      </p>
      <h1>{title}</h1>
      {model.refusal && (
        <ErrorAlert>
          <h2>Nothing was added</h2>
          <p>{model.refusal}</p>
        </ErrorAlert>
      )}
      <ErrorSummary problems={model.problems} labels={venueFieldLabel} />
      {!model.adding ? (
        <p>
          This event is booked, completed or cancelled: venues can no longer be asked.{' '}
          <a href={href.event(model.eventId, 'venues')}>Back to the event</a>
        </p>
      ) : (
        <>
          <p>{model.adding}</p>
          <search aria-label="Search the directory">
            <form method="get" action={href.addEventVenue(model.eventId)} class="filters">
              <div class="field">
                <label for="field-q">Name or city contains</label>
                <input id="field-q" type="search" name="q" value={model.search} />
              </div>
              <button type="submit">Search</button>
            </form>
          </search>
          <form method="post" action={href.addEventVenue(model.eventId)} novalidate>
            <CsrfField token={props.frame.csrf} />
            <input type="hidden" name="q" value={model.search} />
            <fieldset
              id={fieldId('venueId')}
              class={venueErrors ? 'invalid' : undefined}
              aria-describedby={venueErrors ? `${fieldId('venueId')}-error` : undefined}
            >
              <legend>Venue</legend>
              <ErrorText id={fieldId('venueId')} messages={venueErrors} />
              {model.venues.length === 0 ? (
                <p class="empty">
                  {model.search
                    ? `No venue’s name or city contains “${model.search}”.`
                    : 'Your directory has no venues yet.'}{' '}
                  <a href={href.newVenue()}>Add a venue to the directory</a>
                </p>
              ) : (
                <ul class="plain choices">
                  {model.venues.map((venue) => {
                    const asked = model.asked.get(venue.id);
                    return (
                      <li>
                        <label class="checkbox">
                          <input
                            type="radio"
                            name="venueId"
                            value={venue.id}
                            checked={chosen === venue.id}
                            disabled={asked !== undefined}
                          />
                          {venue.name} <span class="subtle">· {venuePlaceWords(venue)}</span>
                          {asked && (
                            <span class="subtle">
                              {' '}
                              — already on this event ({requestStatusLabel(asked.status).toLowerCase()})
                            </span>
                          )}
                        </label>
                      </li>
                    );
                  })}
                </ul>
              )}
              {model.total > model.venues.length && (
                <p class="hint">
                  Showing the first {count(model.venues.length)} of {count(model.total)} venues by name:
                  search to find another.
                </p>
              )}
            </fieldset>
            <TextField
              name="responseDueDate"
              label="Reply by"
              type="date"
              value={field(model.values, 'responseDueDate')}
              errors={errors}
              hint={`The day the venue is asked to answer by. Leave it blank for ${model.defaultReplyBy}.`}
            />
            <div class="form-actions">
              <button type="submit" class="primary">
                {model.shortlist ? 'Add to the shortlist' : 'Send the request'}
              </button>
              <a href={href.event(model.eventId, 'venues')}>Cancel</a>
            </div>
          </form>
        </>
      )}
    </Layout>
  );
}

interface WithdrawModel {
  eventId: string;
  eventName: string;
  request: VenueRequest;
  refusal: string | undefined;
}

/** What withdrawing this request does, said before it is done. */
function consequence(request: VenueRequest): string {
  const venue = request.venue.name;
  if (request.status === 'shortlisted')
    return `${venue} will be taken off the shortlist. It was never sent anything, so it is not told; you can add it again later.`;
  const proposal = request.status === 'proposed' ? ' Its proposal will no longer be considered.' : '';
  return `The request to ${venue} will be withdrawn: the venue is told by mail, and its link will show the request as closed.${proposal} A venue is asked once per event, so it cannot be asked again for this one.`;
}

function WithdrawPage(props: { frame: Frame; model: WithdrawModel }) {
  const { model } = props;
  const { request } = model;
  const shortlisted = request.status === 'shortlisted';
  const title = shortlisted
    ? `Take ${request.venue.name} off the shortlist?`
    : `Withdraw the request to ${request.venue.name}?`;
  return (
    <Layout frame={props.frame} title={`${title} ${model.eventName}`}>
      <p class="breadcrumb">
        <a href={href.event(model.eventId, 'venues')}>{model.eventName}</a>
      </p>
      <h1>{title}</h1>
      {model.refusal && (
        <ErrorAlert>
          <h2>Nothing was withdrawn</h2>
          <p>{model.refusal}</p>
        </ErrorAlert>
      )}
      {isClosedRequest(request.status) ? (
        <p>
          This request is {requestStatusLabel(request.status).toLowerCase()}: it is closed, so there is
          nothing to withdraw. <a href={href.event(model.eventId, 'venues')}>Back to the event</a>
        </p>
      ) : (
        <>
          <p>{consequence(request)}</p>
          <form method="post" action={href.withdrawRequest(model.eventId, request.id)} class="form-actions">
            <CsrfField token={props.frame.csrf} />
            <button type="submit" class="danger">
              {shortlisted ? 'Take off the shortlist' : 'Withdraw the request'}
            </button>
            <a href={href.event(model.eventId, 'venues')}>Keep it</a>
          </form>
        </>
      )}
    </Layout>
  );
}
