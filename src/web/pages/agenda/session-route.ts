/** `/app/events/{id}/agenda/{sessionId}`: the form that edits one session of the agenda. */
import { viewMyEvent } from '../../../app/planning.js';
import { renderCancelled } from '../../cancelled-page.js';
import { meetingDays } from '../../event-days.js';
import { field, sessionBody, sessionField } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { submitForm } from '../../submit-form.js';
import { saveAgendaOperation } from '../save-event.js';
import { type SessionEditModel, SessionEditPage, sessionValues } from './view.js';

type SessionRequest = PageRequest<typeof ROUTES.agendaSession>;

async function sessionPage(
  page: SessionRequest,
  shown: Partial<Pick<SessionEditModel, 'values' | 'problems' | 'stale' | 'version'>>,
  status = 200,
) {
  const view = await viewMyEvent(page.deps, page.person, page.params.id);
  const session = view.details.agenda.find((item) => item.id === page.params.sessionId.toLowerCase());
  if (!session) return page.notFound();
  if (view.details.status === 'cancelled') {
    return renderCancelled(page, view, `Edit a session of ${view.details.name}`);
  }
  return page.render(
    SessionEditPage({
      frame: page.frame(),
      model: {
        eventId: view.details.id,
        eventName: view.details.name,
        sessionId: session.id,
        version: shown.version ?? view.version,
        meetingDays: meetingDays(view.details.meetingRoomDates),
        values: shown.values ?? sessionValues(session),
        problems: shown.problems ?? [],
        stale: shown.stale ?? false,
      },
    }),
    status,
  );
}

export const agendaSession: PageModule = [
  loader(ROUTES.agendaSession, (page) => sessionPage(page, {})),

  action(ROUTES.agendaSession, (page) => {
    const { id, sessionId } = page.params;
    const operation = { op: 'update', sessionId, session: sessionBody(page.form) };
    return submitForm(page, {
      change: () => saveAgendaOperation(page, operation),
      done: () => page.redirect(href.agenda(id), 'session-saved'),
      expects: { problems: sessionField, stale: true, cancelled: true },
      // The form keeps the version it was read at, unless stale: then a second Save applies it to the event now.
      again: (state, status) =>
        sessionPage(
          page,
          { values: page.form, ...state, ...(state.stale ? {} : { version: field(page.form, 'version') }) },
          status,
        ),
    });
  }),
];
