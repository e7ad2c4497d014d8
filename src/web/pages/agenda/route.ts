/** `/app/events/{id}/agenda`: the sessions day by day, "Add a session", and each session's "Remove". */
import { viewMyEvent } from '../../../app/planning.js';
import { renderCancelled } from '../../cancelled-page.js';
import { meetingDays } from '../../event-days.js';
import { field, sessionBody, sessionField } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import type { NoticeCode } from '../../notices.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { submitForm } from '../../submit-form.js';
import { saveAgendaOperation } from '../save-event.js';
import { type AgendaModel, AgendaPage } from './view.js';

async function agendaPage(
  page: PageRequest<typeof ROUTES.agenda>,
  model: Partial<AgendaModel>,
  status = 200,
) {
  const view = await viewMyEvent(page.deps, page.person, page.params.id);
  if (view.details.status === 'cancelled')
    return renderCancelled(page, view, `Agenda of ${view.details.name}`);
  return page.render(
    AgendaPage({
      frame: page.frame(),
      notice: page.notice,
      model: {
        eventId: view.details.id,
        eventName: view.details.name,
        version: view.version,
        agenda: view.details.agenda,
        meetingDays: meetingDays(view.details.meetingRoomDates),
        values: {},
        problems: [],
        ...model,
      },
    }),
    status,
  );
}

/** One agenda operation onto the version the page was read at; a refusal shows the agenda again. */
function changeAgenda(
  page: PageRequest<typeof ROUTES.agenda>,
  operation: Record<string, unknown>,
  done: NoticeCode,
  /** What the add form shows again after a refusal (nothing after a removal). */
  values: AgendaModel['values'],
) {
  const { id } = page.params;
  const version = field(page.form, 'version');
  return submitForm(page, {
    change: () => saveAgendaOperation(page, operation),
    done: () => page.redirect(href.agenda(id), done),
    expects: { problems: sessionField, stale: true, cancelled: true },
    // The form keeps the version it was read at, unless stale: then a second Save applies it to the event now.
    again: (state, status) =>
      agendaPage(page, { values, ...state, ...(state.stale ? {} : { version }) }, status),
  });
}

export const agenda: PageModule = [
  loader(ROUTES.agenda, (page) => agendaPage(page, {})),

  action(ROUTES.agenda, (page) =>
    changeAgenda(page, { op: 'add', session: sessionBody(page.form) }, 'session-added', page.form),
  ),

  action(ROUTES.removeAgendaSession, (page) =>
    changeAgenda(page, { op: 'remove', sessionId: page.params.sessionId }, 'session-removed', {}),
  ),
];
