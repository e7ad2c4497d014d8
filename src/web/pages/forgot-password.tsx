/**
 * `/app/forgot-password`: "Forgot password" asks for an email and mails a single-use link there (OWASP
 * ASVS 5, chapter 6). The answer is the same whether or not an account uses the email, and comes as
 * fast: the mail is written after the answer. Requests are throttled like sign-in.
 */
import { requestPasswordReset } from '../../app/people.js';
import { field } from '../forms.js';
import { href, ROUTES } from '../href.js';
import { CsrfField, ErrorSummary, type Frame, Layout, TextField } from '../layout.js';
import { action, loader, type PageModule } from '../page-module.js';
import { submitForm } from '../submit-form.js';

export const forgotPasswordPage: PageModule = [
  loader(
    ROUTES.forgotPassword,
    (page) => page.render(ForgotPasswordPage({ frame: page.frame(), email: '', notice: page.notice })),
    'anyone',
  ),

  action(
    ROUTES.forgotPassword,
    (page) => {
      const email = field(page.form, 'email');
      return submitForm(page, {
        change: () =>
          requestPasswordReset(page.deps, {
            email,
            clientAddress: page.request.ip,
            resetPage: href.resetPassword,
          }),
        done: ({ delivery }) => {
          // Not awaited: an email with an account must not take longer to answer than one without.
          delivery.catch((error: unknown) =>
            page.request.log.error({ err: error }, 'a password link could not be written'),
          );
          return page.redirect(href.forgotPassword(), 'password-link-sent');
        },
        expects: { refusal: true },
        again: (state, status) =>
          page.render(ForgotPasswordPage({ frame: page.frame(), email, error: state.refusal }), status),
      });
    },
    'anyone',
  ),
];

function ForgotPasswordPage(props: {
  frame: Frame;
  email: string;
  error?: string | undefined;
  notice?: string | undefined;
}) {
  return (
    <Layout frame={props.frame} title="Forgot password" notice={props.notice}>
      <div class="narrow">
        <h1>Forgot your password?</h1>
        <p>
          Give the email you sign in with. If an account uses it, a link to choose a new password goes there;
          it works once, within an hour.
        </p>
        {props.error && (
          <ErrorSummary problems={[{ field: 'email', message: props.error }]} labels={() => 'Email'} />
        )}
        <form method="post" action={href.forgotPassword()} novalidate>
          <CsrfField token={props.frame.csrf} />
          <TextField
            name="email"
            label="Email"
            type="email"
            value={props.email}
            errors={new Map()}
            autocomplete="username"
            required
          />
          <div class="form-actions">
            <button type="submit" class="primary">
              Send me a link
            </button>
            <a href={href.signIn()}>Back to sign in</a>
          </div>
        </form>
      </div>
    </Layout>
  );
}
