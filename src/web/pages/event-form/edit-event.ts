/** `/app/events/{id}/edit`: "Edit details", saved only onto the version of the event the form was read at. */
import { viewMyEvent } from '../../../app/planning.js';
import { renderCancelled } from '../../cancelled-page.js';
import { detailsBody, field, fields } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { submitForm } from '../../submit-form.js';
import { savedNotice, saveEvent } from '../save-event.js';
import { type EventFormModel, EventFormPage, valuesOf } from './form.js';

type EditRequest = PageRequest<typeof ROUTES.editEvent>;

async function editForm(page: EditRequest, model: Partial<EventFormModel>, status = 200) {
  const view = await viewMyEvent(page.deps, page.person, page.params.id);
  if (view.details.status === 'cancelled') return renderCancelled(page, view, `Edit ${view.details.name}`);
  return page.render(
    EventFormPage({
      frame: page.frame(),
      model: {
        mode: 'edit',
        eventId: view.details.id,
        eventName: view.details.name,
        version: view.version,
        values: valuesOf(view.details),
        problems: [],
        ...model,
      },
    }),
    status,
  );
}

export const editEvent: PageModule = [
  loader(ROUTES.editEvent, (page) => editForm(page, {})),

  action(ROUTES.editEvent, (page) => {
    const { id } = page.params;
    const { body, controlOf } = detailsBody(page.form);
    // Sessions ticked for removal in the orphaned-sessions conflict go with this save.
    const removals = fields(page.form, 'removeSession');
    if (removals.length > 0)
      body.agendaOperations = removals.map((sessionId) => ({ op: 'remove', sessionId }));
    const version = field(page.form, 'version');
    return submitForm(page, {
      change: () => saveEvent(page, body),
      done: async () => page.redirect(href.event(id), await savedNotice(page)),
      expects: {
        problems: controlOf,
        orphans: true,
        stale: true,
        cancelled: true,
      },
      // A stale form takes the event's version now, so that a second Save applies what was typed.
      again: (state, status) =>
        editForm(page, { values: page.form, ...state, ...(state.stale ? {} : { version }) }, status),
    });
  }),
];
