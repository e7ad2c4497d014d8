/** `/app/events/new`: "New event", created by the person who saves it and granted as D11 says. */
import { createMyEvent } from '../../../app/planning.js';
import { createBody, toFormField } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { submitForm } from '../../submit-form.js';
import { type EventFormModel, EventFormPage } from './form.js';

const newEventForm = (page: PageRequest, model: Partial<EventFormModel>, status = 200) =>
  page.render(
    EventFormPage({ frame: page.frame(), model: { mode: 'create', values: {}, problems: [], ...model } }),
    status,
  );

export const newEvent: PageModule = [
  loader(ROUTES.newEvent, (page) => newEventForm(page, {})),

  action(ROUTES.newEvent, (page) => {
    const { body, rows } = createBody(page.form);
    return submitForm(page, {
      change: () => createMyEvent(page.deps, page.person, body),
      done: ({ id }) => page.redirect(href.event(id), 'created'),
      expects: { problems: (name) => toFormField(name, rows), refusal: true },
      again: (state, status) => newEventForm(page, { values: page.form, ...state }, status),
    });
  }),
];
