/** `/app`: the events granted to the signed-in person, filtered by status and name, a page at a time. */
import { ACTIVE_STATUSES, type EventRow, listAwaitingMyApproval, listMyEvents } from '../../app/planning.js';
import type { EventStatus } from '../../domain/types.js';
import { STATUSES } from '../../domain/types.js';
import { count, dateRanges, deadline, instant, money, personName } from '../format.js';
import { href, ROUTES } from '../href.js';
import { type Frame, Layout, StatusBadge } from '../layout.js';
import { loader, type PageModule } from '../page-module.js';
import { locationWords } from '../place-words.js';
import { statusLabel } from '../words.js';

export const eventList: PageModule = [
  loader(ROUTES.events, async (page) => {
    const { statuses, chosen } = requestedStatuses(page.query);
    const search = typeof page.query.q === 'string' ? page.query.q : '';
    const pageNumber = Math.max(
      1,
      Math.min(Number.parseInt(String(page.query.page ?? '1'), 10) || 1, 1_000_000),
    );
    const result = await listMyEvents(page.deps, page.person, { statuses, search, page: pageNumber });
    // What waits for this person comes first, on the first page.
    const awaiting = pageNumber === 1 ? await listAwaitingMyApproval(page.deps, page.person) : [];
    return page.render(
      EventListPage({
        frame: page.frame(),
        model: { ...result, awaiting, statuses, search, defaultStatuses: !chosen },
        notice: page.notice,
      }),
    );
  }),
];

/** The statuses ticked in the filter; none ticked means the active ones. */
function requestedStatuses(query: Record<string, unknown>): { statuses: EventStatus[]; chosen: boolean } {
  const raw = query.status;
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
  const statuses = STATUSES.filter((status) => values.includes(status));
  return statuses.length > 0 ? { statuses, chosen: true } : { statuses: [...ACTIVE_STATUSES], chosen: false };
}

export interface EventListModel {
  rows: EventRow[];
  /** Events waiting for this person's approval (first page only). */
  awaiting: EventRow[];
  total: number;
  page: number;
  pageCount: number;
  statuses: readonly EventStatus[];
  search: string;
  /** True when no status was chosen, so the active ones are shown. */
  defaultStatuses: boolean;
}

/** A table of events, one row each, with every column of the list. */
function EventTable(props: { rows: EventRow[]; caption: string }) {
  return (
    <div class="table-wrap">
      <table class="events">
        <caption>{props.caption}</caption>
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
          {props.rows.map((row) => (
            <tr>
              <th scope="row">
                <a href={href.event(row.id)}>{row.name}</a>
                {row.unansweredQuestions && (
                  <a class="flag" href={`${href.event(row.id)}#questions`}>
                    Questions waiting for an answer
                  </a>
                )}
              </th>
              <td>
                <StatusBadge status={row.status} />
              </td>
              <td>{row.locations.length === 0 ? '—' : row.locations.map(locationWords).join('; ')}</td>
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
  );
}

const pageLink = (model: EventListModel, page: number) =>
  href.events({ statuses: model.statuses, search: model.search, page });

function EventListPage(props: { frame: Frame; model: EventListModel; notice?: string | undefined }) {
  const { model } = props;
  return (
    <Layout frame={props.frame} title="Events" notice={props.notice}>
      <div class="page-head">
        <h1>Events</h1>
        <a class="button" href={href.newEvent()}>
          New event
        </a>
      </div>
      {model.awaiting.length > 0 && (
        <section class="awaiting" aria-labelledby="awaiting-title">
          <h2 id="awaiting-title">Waiting for your approval</h2>
          <EventTable
            rows={model.awaiting}
            caption={
              model.awaiting.length === 1
                ? '1 event waits for you to approve it or return it to draft'
                : `${count(model.awaiting.length)} events wait for you to approve them or return them to draft`
            }
          />
        </section>
      )}
      <search aria-label="Filter events">
        <form method="get" action={href.events()} class="filters">
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
        <EventTable
          rows={model.rows}
          caption={`${model.total === 1 ? '1 event' : `${count(model.total)} events`}, newest first`}
        />
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
