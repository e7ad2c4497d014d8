/** `/app`: the events granted to the signed-in person. */
import type { EventRow } from '../../app/planning.js';
import type { EventStatus } from '../../domain/types.js';
import { STATUSES } from '../../domain/types.js';
import { count, dateRanges, deadline, instant, money, personName, statusLabel } from '../format.js';
import { type Frame, Layout } from './layout.js';

export const StatusBadge = (props: { status: EventStatus }) => (
  <span class={`status status-${props.status}`}>{statusLabel(props.status)}</span>
);

export interface EventListModel {
  rows: EventRow[];
  total: number;
  page: number;
  pageCount: number;
  statuses: readonly EventStatus[];
  search: string;
  /** True when no status was chosen, so the active ones are shown. */
  defaultStatuses: boolean;
}

function pageLink(model: EventListModel, page: number): string {
  const query = new URLSearchParams();
  for (const status of model.statuses) query.append('status', status);
  if (model.search) query.set('q', model.search);
  query.set('page', String(page));
  return `/app?${query}`;
}

export function EventListPage(props: { frame: Frame; model: EventListModel; notice?: string | undefined }) {
  const { model } = props;
  return (
    <Layout frame={props.frame} title="Events" notice={props.notice}>
      <div class="page-head">
        <h1>Events</h1>
        <a class="button" href="/app/events/new">
          New event
        </a>
      </div>
      <search aria-label="Filter events">
        <form method="get" action="/app" class="filters">
          <fieldset>
            <legend>Status</legend>
            <div class="checkbox-row">
              {STATUSES.map((status) => (
                <label class="checkbox">
                  <input
                    type="checkbox"
                    name="status"
                    value={status}
                    checked={model.statuses.includes(status)}
                  />
                  {statusLabel(status)}
                </label>
              ))}
            </div>
            {model.defaultStatuses && (
              <p class="hint">Showing active events: completed and cancelled ones are hidden.</p>
            )}
          </fieldset>
          <div class="field">
            <label for="field-q">Name contains</label>
            <input id="field-q" type="search" name="q" value={model.search} />
          </div>
          <button type="submit">Filter</button>
        </form>
      </search>
      {model.rows.length === 0 ? (
        <p class="empty">
          {model.total === 0 && !model.search && model.defaultStatuses
            ? 'No events yet. Create one with “New event”.'
            : 'No events match these filters.'}
        </p>
      ) : (
        <div class="table-wrap">
          <table class="events">
            <caption>{model.total === 1 ? '1 event' : `${count(model.total)} events`}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Cities</th>
                <th scope="col">Dates</th>
                <th scope="col" class="number">
                  Attendees
                </th>
                <th scope="col" class="number">
                  Total budget
                </th>
                <th scope="col">Decision deadline</th>
                <th scope="col">Creator</th>
                <th scope="col">Last change</th>
              </tr>
            </thead>
            <tbody>
              {model.rows.map((row) => (
                <tr>
                  <th scope="row">
                    <a href={`/app/events/${row.id}`}>{row.name}</a>
                  </th>
                  <td>
                    <StatusBadge status={row.status} />
                  </td>
                  <td>{row.cities.length === 0 ? '—' : row.cities.join('; ')}</td>
                  <td>{dateRanges(row.eventDates)}</td>
                  <td class="number">{count(row.numPeople)}</td>
                  <td class="number">{money(row.totalBudget, row.currency)}</td>
                  <td>{deadline(row.decisionDeadline)}</td>
                  <td>{personName(row.creator)}</td>
                  <td>{instant(row.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {model.pageCount > 1 && (
        <nav class="pagination" aria-label="Pages">
          {model.page > 1 && <a href={pageLink(model, model.page - 1)}>Previous page</a>}
          <span>
            Page {model.page} of {model.pageCount}
          </span>
          {model.page < model.pageCount && <a href={pageLink(model, model.page + 1)}>Next page</a>}
        </nav>
      )}
    </Layout>
  );
}
