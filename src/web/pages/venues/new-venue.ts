/** `/app/venues/new`: "Add a venue" to the organization's directory (D20). */
import { createVenue } from '../../../app/venues.js';
import { href, ROUTES } from '../../href.js';
import { action, loader, type PageModule } from '../../page-module.js';
import { venueProblemWords } from '../../problem-words.js';
import { submitForm } from '../../submit-form.js';
import { VenueFormPage, venueBody } from './form.js';

export const newVenue: PageModule = [
  loader(ROUTES.newVenue, (page) =>
    page.render(VenueFormPage({ frame: page.frame(), model: { values: {}, problems: [] } })),
  ),

  action(ROUTES.newVenue, (page) =>
    submitForm(page, {
      change: () => createVenue(page.deps, page.person, venueBody(page.form)),
      done: () => page.redirect(href.venues(), 'venue-added'),
      expects: { problems: true, words: venueProblemWords },
      again: (state, status) =>
        page.render(
          VenueFormPage({
            frame: page.frame(),
            model: { values: page.form, problems: state.problems ?? [] },
          }),
          status,
        ),
    }),
  ),
];
