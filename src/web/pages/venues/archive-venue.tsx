/**
 * `/app/venues/{venueId}/archive`: archiving a venue (D20's DELETE), asked for on a page that says what
 * it does before it is done. Archiving an archived venue changes nothing.
 */
import { archiveVenueOf, getVenue } from '../../../app/venues.js';
import { NotFoundError, ValidationError } from '../../../domain/errors.js';
import type { Venue } from '../../../domain/venue.js';
import { href, ROUTES } from '../../href.js';
import { CsrfField, type Frame, Layout } from '../../layout.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { venuePlaceWords } from '../../place-words.js';

type ArchiveRequest = PageRequest<typeof ROUTES.archiveVenue>;

async function venueOf(page: ArchiveRequest): Promise<Venue | undefined> {
  try {
    return await getVenue(page.deps, page.person, page.params.venueId);
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof ValidationError) return undefined;
    throw error;
  }
}

export const archiveVenuePage: PageModule = [
  loader(ROUTES.archiveVenue, async (page) => {
    const venue = await venueOf(page);
    if (!venue) return page.notFound();
    // Already archived: its page says so.
    if (venue.archivedAt !== null) return page.redirect(href.venue(venue.id));
    return page.render(ArchivePage({ frame: page.frame(), venue }));
  }),

  action(ROUTES.archiveVenue, async (page) => {
    const venue = await venueOf(page);
    if (!venue) return page.notFound();
    await archiveVenueOf(page.deps, page.person, venue.id);
    return page.redirect(href.venues(), 'venue-archived');
  }),
];

function ArchivePage(props: { frame: Frame; venue: Venue }) {
  const { venue } = props;
  return (
    <Layout frame={props.frame} title={`Archive ${venue.name}`}>
      <p class="breadcrumb">
        <a href={href.venues()}>Venues</a>
      </p>
      <h1>Archive {venue.name}?</h1>
      <p>
        {venue.name} ({venuePlaceWords(venue)}) will leave the directory: it is no longer offered when you add
        venues to an event, and it can no longer be changed. Events that already asked it keep showing it, and
        requests already sent to it stay as they are. Archived venues stay listed under “Show archived
        venues”; archiving cannot be undone here.
      </p>
      <form method="post" action={href.archiveVenue(venue.id)} class="form-actions">
        <CsrfField token={props.frame.csrf} />
        <button type="submit" class="danger">
          Archive venue
        </button>
        <a href={href.venue(venue.id)}>Keep it</a>
      </form>
    </Layout>
  );
}
