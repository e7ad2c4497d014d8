/** `/app/events/{id}`: the event page, and "Duplicate", which makes a new draft copy of it. */
import { duplicateMyEvent, viewMyEvent } from '../../../app/planning.js';
import { href, ROUTES } from '../../href.js';
import { action, loader, type PageModule } from '../../page-module.js';
import { submitForm } from '../../submit-form.js';
import { EventPage } from './view.js';

export const eventPage: PageModule = [
  loader(ROUTES.event, async (page) => {
    const view = await viewMyEvent(page.deps, page.person, page.params.id);
    return page.render(EventPage({ frame: page.frame(), view, notice: page.notice }));
  }),

  action(ROUTES.duplicateEvent, (page) =>
    submitForm(page, {
      change: () => duplicateMyEvent(page.deps, page.person, page.params.id),
      done: ({ id }) => page.redirect(href.event(id), 'duplicated'),
      // A person in no group could not see the copy: nothing is made, and the event page says why.
      expects: { refusal: true },
      again: () => page.redirect(href.event(page.params.id), 'not-in-a-group'),
    }),
  ),
];
