/**
 * `/app/reset-password?token=…`: where a "Forgot password" link leads. The person chooses a new
 * password (D15's policy); the link is used up, every session of theirs ends, and this browser is
 * signed in. The token travels in the query and then in the form's body, never in a path, so the
 * access log never writes it; pages send no Referer (D15's headers).
 */
import { findPasswordReset, resetPassword } from '../../app/people.js';
import { type FormProblem, field, problemsByField } from '../forms.js';
import { href, ROUTES } from '../href.js';
import { CsrfField, ErrorSummary, type Frame, Layout, TextField } from '../layout.js';
import { action, loader, type PageModule } from '../page-module.js';
import { setSessionCookie } from '../session-cookie.js';
import { submitForm } from '../submit-form.js';
import { userAgentOf } from './sign-in.js';

export const resetPasswordPage: PageModule = [
  loader(
    ROUTES.resetPassword,
    async (page) => {
      const token = typeof page.query.token === 'string' ? page.query.token : '';
      const person = await findPasswordReset(page.deps, token);
      return page.render(
        ResetPasswordPage({ frame: page.frame(), token, person, problems: [] }),
        person ? 200 : 404,
      );
    },
    'anyone',
  ),

  action(
    ROUTES.resetPassword,
    async (page) => {
      const token = field(page.form, 'token');
      const person = await findPasswordReset(page.deps, token);
      return submitForm(page, {
        change: () =>
          resetPassword(page.deps, token, field(page.form, 'password'), {
            clientAddress: page.request.ip,
            userAgent: userAgentOf(page.request),
          }),
        done: ({ token: session }) => {
          setSessionCookie(page.request, page.reply, session, page.deps.sessionPolicy.maxDays * 86_400);
          return page.redirect(href.events(), 'password-changed');
        },
        expects: { problems: true, gone: true },
        again: (state, status) =>
          page.render(
            ResetPasswordPage({
              frame: page.frame(),
              token,
              person: state.gone ? undefined : person,
              problems: state.problems ?? [],
            }),
            status,
          ),
      });
    },
    'anyone',
  ),
];

function ResetPasswordPage(props: {
  frame: Frame;
  token: string;
  /** Whom the link is for, or undefined when it cannot be used. */
  person: { email: string; name: string | null } | undefined;
  problems: FormProblem[];
}) {
  if (!props.person) {
    return (
      <Layout frame={props.frame} title="Link not valid">
        <div class="narrow">
          <h1>This link cannot be used</h1>
          <p>
            It has been used already, has expired (links last one hour) or was replaced by a newer one.{' '}
            <a href={href.forgotPassword()}>Ask for a new link</a>, or <a href={href.signIn()}>sign in</a> if
            you remember your password.
          </p>
        </div>
      </Layout>
    );
  }
  return (
    <Layout frame={props.frame} title="Choose a new password">
      <div class="narrow">
        <h1>Choose a new password</h1>
        <p>
          For <strong>{props.person.name ?? props.person.email}</strong> ({props.person.email}). Every browser
          signed in with the old password will be signed out.
        </p>
        <ErrorSummary problems={props.problems} labels={() => 'New password'} />
        <form method="post" action={href.resetPassword()} novalidate>
          <CsrfField token={props.frame.csrf} />
          <input type="hidden" name="token" value={props.token} />
          <input
            type="text"
            name="username"
            value={props.person.email}
            autocomplete="username"
            hidden
            readOnly
          />
          <TextField
            name="password"
            label="New password"
            type="password"
            value=""
            errors={problemsByField(props.problems)}
            autocomplete="new-password"
            hint="8 to 128 characters. Any characters; a passphrase is good. Common passwords are refused."
            required
          />
          <div class="form-actions">
            <button type="submit" class="primary">
              Set new password
            </button>
          </div>
        </form>
      </div>
    </Layout>
  );
}
