/** `/app/sessions`: the person's own sessions, each of which can be ended; ending this one signs out. */
import { endOwnSession, listOwnSessions } from '../../app/people.js';
import { instant } from '../format.js';
import { href, ROUTES } from '../href.js';
import { CsrfField, type Frame, Layout } from '../layout.js';
import { action, loader, type PageModule } from '../page-module.js';
import { clearSessionCookie } from '../session-cookie.js';

export const sessions: PageModule = [
  loader(ROUTES.sessions, async (page) => {
    const sessions = await listOwnSessions(page.deps, page.person);
    return page.render(SessionsPage({ frame: page.frame(), sessions, notice: page.notice }));
  }),

  action(ROUTES.endSession, async (page) => {
    const { id } = page.params;
    await endOwnSession(page.deps, page.person, id);
    if (id === page.person.sessionId) {
      clearSessionCookie(page.request, page.reply);
      return page.redirect(href.signIn(), 'signed-out');
    }
    return page.redirect(href.sessions(), 'session-ended');
  }),
];

interface SessionRow {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  clientAddress: string | null;
  current: boolean;
}

function SessionsPage(props: { frame: Frame; sessions: SessionRow[]; notice?: string | undefined }) {
  return (
    <Layout frame={props.frame} title="Sessions" notice={props.notice}>
      <h1>Your sessions</h1>
      <p>
        Every browser where you are signed in. End any you do not recognise; it is signed out at its next
        request.
      </p>
      <div class="table-wrap">
        <table>
          <caption>{props.sessions.length === 1 ? '1 session' : `${props.sessions.length} sessions`}</caption>
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Address</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">Ends at the latest</th>
              <th scope="col">
                <span class="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.sessions.map((session) => (
              <tr>
                <th scope="row">
                  {session.userAgent ?? 'Unknown browser'}
                  {session.current && <span class="tag"> this browser</span>}
                </th>
                <td>{session.clientAddress ?? '—'}</td>
                <td>{instant(session.createdAt)}</td>
                <td>{instant(session.lastSeenAt)}</td>
                <td>{instant(session.expiresAt)}</td>
                <td>
                  <form method="post" action={href.endSession(session.id)} class="inline">
                    <CsrfField token={props.frame.csrf} />
                    <button type="submit" class="danger">
                      {session.current ? 'End this session (sign out)' : 'End session'}
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Layout>
  );
}
