/**
 * `/app/invite/{token}`: a single-use invitation link (24 h) where a person chooses their password;
 * choosing it signs them in at once.
 */
import { acceptInvite, findInvite, signIn } from '../../app/people.js';
import { type FormProblem, field, problemsByField } from '../forms.js';
import { href, ROUTES } from '../href.js';
import { CsrfField, ErrorSummary, type Frame, Layout, TextField } from '../layout.js';
import { action, loader, type PageModule } from '../page-module.js';
import { setSessionCookie } from '../session-cookie.js';
import { submitForm } from '../submit-form.js';
import { userAgentOf } from './sign-in.js';

export const invitePage: PageModule = [
  loader(
    ROUTES.invite,
    async (page) => {
      const { token } = page.params;
      const invitee = await findInvite(page.deps, token);
      return page.render(
        InvitePage({ frame: page.frame(), token, invitee, problems: [] }),
        invitee ? 200 : 404,
      );
    },
    'anyone',
  ),

  action(
    ROUTES.invite,
    async (page) => {
      const { token } = page.params;
      const password = field(page.form, 'password');
      const invitee = await findInvite(page.deps, token);
      return submitForm(page, {
        change: () => acceptInvite(page.deps, token, password),
        done: async () => {
          // The person just proved the invitation and chose the password: they are signed in at once.
          try {
            const { token: session } = await signIn(page.deps, {
              email: invitee?.email ?? '',
              password,
              clientAddress: page.request.ip,
              userAgent: userAgentOf(page.request),
            });
            setSessionCookie(page.request, page.reply, session, page.deps.sessionPolicy.maxDays * 86_400);
            return page.redirect(href.events(), 'password-set');
          } catch {
            return page.redirect(href.signIn(), 'password-set');
          }
        },
        expects: { problems: true, gone: true },
        again: (state, status) =>
          page.render(
            InvitePage({
              frame: page.frame(),
              token,
              invitee: state.gone ? undefined : invitee,
              problems: state.problems ?? [],
            }),
            status,
          ),
      });
    },
    'anyone',
  ),
];

function InvitePage(props: {
  frame: Frame;
  token: string;
  /** The invited person, or undefined when the link cannot be used. */
  invitee: { email: string; name: string | null } | undefined;
  problems: FormProblem[];
}) {
  const errors = problemsByField(props.problems);
  if (!props.invitee) {
    return (
      <Layout frame={props.frame} title="Invitation not valid">
        <div class="narrow">
          <h1>This invitation cannot be used</h1>
          <p>
            The link has been used already, has expired (links last 24 hours) or was replaced by a newer one.
            Ask your operator for a new invitation, or <a href={href.signIn()}>sign in</a> if you have a
            password.
          </p>
        </div>
      </Layout>
    );
  }
  return (
    <Layout frame={props.frame} title="Choose a password">
      <div class="narrow">
        <h1>Choose a password</h1>
        <p>
          For <strong>{props.invitee.name ?? props.invitee.email}</strong> ({props.invitee.email}).
        </p>
        <ErrorSummary problems={props.problems} labels={() => 'Password'} />
        <form method="post" action={href.invite(props.token)} novalidate>
          <CsrfField token={props.frame.csrf} />
          <input
            type="text"
            name="username"
            value={props.invitee.email}
            autocomplete="username"
            hidden
            readOnly
          />
          <TextField
            name="password"
            label="New password"
            type="password"
            value=""
            errors={errors}
            autocomplete="new-password"
            hint="8 to 128 characters. Any characters; a passphrase is good. Common passwords are refused."
            required
          />
          <div class="form-actions">
            <button type="submit" class="primary">
              Set password
            </button>
          </div>
        </form>
      </div>
    </Layout>
  );
}
