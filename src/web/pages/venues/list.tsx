/**
 * `/app/venues`: the organization's directory of venues (D20), in name order, searched by name or
 * city, a page at a time; `?archived=1` lists the archived venues instead.
 */
import { listVenues, VENUE_PAGE, VENUE_SEARCH_MAX } from '../../../app/venues.js';
import type { Venue } from '../../../domain/venue.js';
import { count, instant } from '../../format.js';
import { href, ROUTES } from '../../href.js';
import { type Frame, Layout } from '../../layout.js';
import { loader, type PageModule } from '../../page-module.js';
import { venuePlaceWords } from '../../place-words.js';

export const venueList: PageModule = [
  loader(ROUTES.venues, async (page) => {
    // A longer search could never match a name; it is cut rather than refused.
    const search =
      typeof page.query.q === 'string' ? [...page.query.q].slice(0, VENUE_SEARCH_MAX).join('') : '';
    const archived = page.query.archived === '1';
    const pageNumber = Math.max(
      1,
      Math.min(Number.parseInt(String(page.query.page ?? '1'), 10) || 1, 1_000_000),
    );
    const limit = VENUE_PAGE.defaultLimit;
    const { data, total } = await listVenues(page.deps, page.person, {
      q: search,
      archived,
      page: pageNumber,
      limit,
    });
    return page.render(
      VenueListPage({
        frame: page.frame(),
        model: {
          venues: data,
          total,
          search,
          archived,
          page: pageNumber,
          pageCount: Math.max(1, Math.ceil(total / limit)),
        },
        notice: page.notice,
      }),
    );
  }),
];

export interface VenueListModel {
  venues: Venue[];
  total: number;
  search: string;
  archived: boolean;
  page: number;
  pageCount: number;
}

const number = (value: number | null) => (value === null ? '—' : count(value));

function VenueTable(props: { model: VenueListModel }) {
  const { model } = props;
  const what = model.archived ? 'archived venue' : 'venue';
  const caption = `${model.total === 1 ? `1 ${what}` : `${count(model.total)} ${what}s`}${
    model.search ? ` matching “${model.search}”` : ''
  }, by name`;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways on a phone, so the keyboard must reach it
    <section class="table-wrap" aria-labelledby="venues-caption" tabIndex={0}>
      <table class="venues">
        <caption id="venues-caption">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">City</th>
            <th scope="col">Contact</th>
            <th scope="col" class="number">
              Guest rooms
            </th>
            <th scope="col" class="number">
              Largest meeting room
            </th>
            {model.archived && <th scope="col">Archived</th>}
          </tr>
        </thead>
        <tbody>
          {model.venues.map((venue) => (
            <tr>
              <th scope="row">
                <a href={href.venue(venue.id)}>{venue.name}</a>
              </th>
              <td>{venuePlaceWords(venue)}</td>
              <td>
                {venue.contactName && <span>{venue.contactName}, </span>}
                {venue.email}
              </td>
              <td class="number">{number(venue.guestRooms)}</td>
              <td class="number">
                {venue.largestMeetingRoomCapacity === null
                  ? '—'
                  : `${count(venue.largestMeetingRoomCapacity)} people`}
              </td>
              {model.archived && <td>{venue.archivedAt ? instant(venue.archivedAt) : '—'}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function VenueListPage(props: { frame: Frame; model: VenueListModel; notice?: string | undefined }) {
  const { model } = props;
  const title = model.archived ? 'Archived venues' : 'Venues';
  const pageLink = (page: number) => href.venues({ search: model.search, archived: model.archived, page });
  return (
    <Layout frame={props.frame} title={title} notice={props.notice}>
      <div class="page-head">
        <h1>{title}</h1>
        <a class="button" href={href.newVenue()}>
          Add a venue
        </a>
      </div>
      <p class="hint">
        {model.archived
          ? 'Archived venues are no longer offered for events; events that asked them keep showing them.'
          : 'The hotels and venues your organization asks for proposals. Everyone in the organization sees the same list.'}
      </p>
      <search aria-label="Search venues">
        <form method="get" action={href.venues()} class="filters">
          {model.archived && <input type="hidden" name="archived" value="1" />}
          <div class="field">
            <label for="field-q">Name or city contains</label>
            <input id="field-q" type="search" name="q" value={model.search} />
          </div>
          <button type="submit">Search</button>
        </form>
      </search>
      <p>
        {model.archived ? (
          <a href={href.venues({ search: model.search })}>Show the venues in use</a>
        ) : (
          <a href={href.venues({ search: model.search, archived: true })}>Show archived venues</a>
        )}
      </p>
      {model.venues.length === 0 ? (
        <p class="empty">
          {model.search
            ? `No ${model.archived ? 'archived ' : ''}venue’s name or city contains “${model.search}”.`
            : model.archived
              ? 'No archived venues.'
              : 'No venues yet. Add the hotels and venues you ask for proposals with “Add a venue”.'}
        </p>
      ) : (
        <VenueTable model={model} />
      )}
      {model.pageCount > 1 && (
        <nav class="pagination" aria-label="Pages">
          {model.page > 1 && <a href={pageLink(model.page - 1)}>Previous page</a>}
          <span>
            Page {model.page} of {model.pageCount}
          </span>
          {model.page < model.pageCount && <a href={pageLink(model.page + 1)}>Next page</a>}
        </nav>
      )}
    </Layout>
  );
}
