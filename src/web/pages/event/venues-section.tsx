/**
 * The event page's "Venues" section (D21): the venues asked for proposals, each request's status in
 * words, when a reply is due, and what a planner may do: add a venue from the directory, withdraw one.
 * What happens when is said where it happens: on the shortlist nothing is sent until the event is sent
 * to venues; once it has been, a venue added is sent its request at once.
 */
import type { EventView } from '../../../app/planning.js';
import type { EventStatus } from '../../../domain/types.js';
import {
  isClosedRequest,
  isOpenRequest,
  isSourcing,
  type VenueRequest,
} from '../../../domain/venue-request.js';
import { day, deadline, instant } from '../../format.js';
import { href } from '../../href.js';
import { requestStatusWords } from '../../words.js';

/** Whether a venue added now is only shortlisted (false: it is sent its request at once). */
export const addsToShortlist = (status: EventStatus): boolean =>
  status === 'draft' || status === 'pending_approval';

/** What adding a venue does now, in a sentence; undefined when venues can no longer be added. */
export function whatAddingDoes(status: EventStatus): string | undefined {
  if (!isSourcing(status)) return undefined;
  return addsToShortlist(status)
    ? 'Venues on the shortlist are sent a request for proposals by mail when the event is sent to venues; nothing is sent before.'
    : 'The event has been sent to venues: a venue added now is sent its request by mail at once.';
}

/** When the venue's reply is due, or what it will be once the request is sent. */
export function replyBy(request: Pick<VenueRequest, 'responseDueDate' | 'status'>, view: EventView): string {
  if (request.responseDueDate) return day(request.responseDueDate);
  if (request.status !== 'shortlisted') return '—';
  return defaultReplyBy(view);
}

/** D21's default reply date, said before it is set: the decision deadline's day, else 14 days after sending. */
export function defaultReplyBy(view: EventView): string {
  const { decisionDeadline } = view.details;
  return decisionDeadline
    ? `the decision deadline (${deadline(decisionDeadline.slice(0, 10))})`
    : '14 days after it is sent';
}

/** When the request last moved, in words, for the status column. */
function when(request: VenueRequest): string | undefined {
  if (request.status === 'sent' && request.sentAt) return `on ${instant(request.sentAt)}`;
  if (request.status === 'viewed' && request.viewedAt) return `on ${instant(request.viewedAt)}`;
  if ((request.status === 'proposed' || request.status === 'turned_down') && request.respondedAt)
    return `on ${instant(request.respondedAt)}`;
  return undefined;
}

export function VenuesSection(props: { view: EventView }) {
  const { view } = props;
  const { details, requests } = view;
  const id = details.id;
  const adding = whatAddingDoes(details.status);
  const cancelled = details.status === 'cancelled';
  const canChange = isSourcing(details.status);
  const openCount = requests.filter((request) => isOpenRequest(request.status)).length;
  return (
    <section id="venues" aria-labelledby="venues-title">
      <h2 id="venues-title">Venues</h2>
      {adding ? (
        <p class="hint">{adding}</p>
      ) : (
        <p class="hint">
          {cancelled
            ? 'The event is cancelled: no venue can be added or withdrawn.'
            : 'Sourcing is over: no more venues can be asked for this event.'}
        </p>
      )}
      {requests.length === 0 ? (
        <p class="empty">
          No venues yet.{canChange ? ' Add venues from your directory to ask them for proposals.' : ''}
        </p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways on a phone, so the keyboard must reach it
        <section class="table-wrap" aria-labelledby="venue-requests-caption" tabIndex={0}>
          <table class="venue-requests">
            <caption id="venue-requests-caption">
              {requests.length === 1 ? '1 venue' : `${requests.length} venues`} asked for this event, in the
              order they were added
            </caption>
            <thead>
              <tr>
                <th scope="col">Venue</th>
                <th scope="col">Status</th>
                <th scope="col">Reply by</th>
                {canChange && <th scope="col">Change</th>}
              </tr>
            </thead>
            <tbody>
              {requests.map((request) => (
                <tr>
                  <th scope="row">
                    {request.venue.name}
                    <span class="subtle"> · {request.venue.city}</span>
                  </th>
                  <td>
                    {requestStatusWords(request)}
                    {when(request) && <span class="subtle"> {when(request)}</span>}
                    {request.turnDown?.comment && <span class="quote"> — “{request.turnDown.comment}”</span>}
                  </td>
                  <td>
                    {replyBy(request, view)}
                    {request.overdue && (
                      <>
                        {' '}
                        <strong class="flag">Overdue</strong>
                        <span class="visually-hidden">: no answer by the reply date</span>
                      </>
                    )}
                  </td>
                  {canChange && (
                    <td>
                      {!isClosedRequest(request.status) && (
                        <ul class="plain actions">
                          <li>
                            <a
                              href={href.moveReplyDate(id, request.id)}
                              aria-label={`Move the reply date: ${request.venue.name}`}
                            >
                              Move the reply date
                            </a>
                          </li>
                          <li>
                            <a
                              href={href.withdrawRequest(id, request.id)}
                              aria-label={`${request.status === 'shortlisted' ? 'Take off the shortlist' : 'Withdraw the request'}: ${request.venue.name}`}
                            >
                              {request.status === 'shortlisted' ? 'Take off the shortlist' : 'Withdraw'}
                            </a>
                          </li>
                        </ul>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {canChange && (
        <p>
          <a class="button" href={href.addEventVenue(id)}>
            {addsToShortlist(details.status) ? 'Add a venue to the shortlist' : 'Ask another venue'}
          </a>
          {openCount > 1 && (
            <>
              {' '}
              <a class="button" href={href.moveReplyDates(id)}>
                Move the reply date of every open request
              </a>
            </>
          )}
        </p>
      )}
    </section>
  );
}
