/**
 * `/app/venues/{venueId}`: one venue of the directory, its form to change it (D20's merge patch, every
 * field sent as shown), or, once archived, what it was, read-only.
 */
import { getVenue, updateVenue } from '../../../app/venues.js';
import { NotFoundError, ValidationError } from '../../../domain/errors.js';
import { VENUE_FIELDS, type Venue } from '../../../domain/venue.js';
import { count, instant } from '../../format.js';
import { href, ROUTES } from '../../href.js';
import { type Frame, Layout } from '../../layout.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { venuePlaceWords } from '../../place-words.js';
import { venueProblemWords } from '../../problem-words.js';
import { submitForm } from '../../submit-form.js';
import { VenueFormPage, venueBody, venueValues } from './form.js';

type VenueRequest = PageRequest<typeof ROUTES.venue>;

/** The venue, or the 404 page for an id that names none of the organization's (another's too). */
async function venueOf(page: VenueRequest): Promise<Venue | undefined> {
  try {
    return await getVenue(page.deps, page.person, page.params.venueId);
  } catch (error) {
    // An id that is no venue's (or not even an id) is the same 404 as an address that names nothing.
    if (error instanceof NotFoundError || error instanceof ValidationError) return undefined;
    throw error;
  }
}

export const editVenue: PageModule = [
  loader(ROUTES.venue, async (page) => {
    const venue = await venueOf(page);
    if (!venue) return page.notFound();
    if (venue.archivedAt !== null) return page.render(ArchivedVenuePage({ frame: page.frame(), venue }));
    return page.render(
      VenueFormPage({
        frame: page.frame(),
        model: { venueId: venue.id, venueName: venue.name, values: venueValues(venue), problems: [] },
      }),
    );
  }),

  action(ROUTES.venue, async (page) => {
    const venue = await venueOf(page);
    if (!venue) return page.notFound();
    return submitForm(page, {
      change: () => updateVenue(page.deps, page.person, venue.id, venueBody(page.form)),
      done: () => page.redirect(href.venues(), 'venue-saved'),
      expects: { problems: true, words: venueProblemWords, refusal: true },
      again: (state, status) =>
        page.render(
          VenueFormPage({
            frame: page.frame(),
            model: {
              venueId: venue.id,
              venueName: venue.name,
              values: page.form,
              problems: state.problems ?? [],
              ...(state.refusal ? { refusal: state.refusal } : {}),
            },
          }),
          status,
        ),
    });
  }),
];

const LABEL = Object.fromEntries(VENUE_FIELDS.map((description) => [description.name, description.label]));

/** An archived venue: what it was, and that it can no longer be changed or asked. */
function ArchivedVenuePage(props: { frame: Frame; venue: Venue }) {
  const { venue } = props;
  const number = (value: number | null) => (value === null ? '—' : count(value));
  const rows: Array<[string, string]> = [
    [LABEL.email!, venue.email],
    [LABEL.city!, venuePlaceWords(venue)],
    [LABEL.contactName!, venue.contactName ?? '—'],
    [LABEL.phone!, venue.phone ?? '—'],
    [LABEL.website!, venue.website ?? '—'],
    [LABEL.guestRooms!, number(venue.guestRooms)],
    [LABEL.largestMeetingRoomCapacity!, number(venue.largestMeetingRoomCapacity)],
    [LABEL.notes!, venue.notes ?? '—'],
  ];
  return (
    <Layout frame={props.frame} title={venue.name}>
      <p class="breadcrumb">
        <a href={href.venues({ archived: true })}>Archived venues</a>
      </p>
      <h1>{venue.name}</h1>
      <p class="notice">
        Archived on {instant(venue.archivedAt!)}: it can no longer be changed or added to events. Events that
        already asked it keep showing it.
      </p>
      <dl class="definitions">
        {rows.map(([term, value]) => (
          <div class="definition">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </Layout>
  );
}
