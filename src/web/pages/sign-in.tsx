/**
 * `/app/sign-in`: email and password (D15). A wrong password and an unknown email get the same words;
 * once signed in, the person goes where they were going (`next`, a page of the dashboard only).
 */
import type { FastifyRequest } from 'fastify';
import { signIn } from '../../app/people.js';
import { field } from '../forms.js';
import { href, ROUTES, safeNext } from '../href.js';
import { CsrfField, ErrorSummary, type Frame, Layout, TextField } from '../layout.js';
import { action, loader, type PageModule } from '../page-module.js';
import { setSessionCookie } from '../session-cookie.js';
import { submitForm } from '../submit-form.js';

export const signInPage: PageModule = [
  loader(
    ROUTES.signIn,
    async (page) => {
      const next = safeNext(typeof page.query.next === 'string' ? page.query.next : href.events());
      if (page.request.person) return page.redirect(next);
      return page.render(SignInPage({ frame: page.frame(), email: '', next, notice: page.notice }));
    },
    'anyone',
  ),

  action(
    ROUTES.signIn,
    (page) => {
      const email = field(page.form, 'email');
      const next = safeNext(field(page.form, 'next'));
      return submitForm(page, {
        change: () =>
          signIn(page.deps, {
            email,
            password: field(page.form, 'password'),
            clientAddress: page.request.ip,
            userAgent: userAgentOf(page.request),
          }),
        done: ({ token, person }) => {
          setSessionCookie(page.request, page.reply, token, page.deps.sessionPolicy.maxDays * 86_400);
          page.request.person = person;
          return page.redirect(next);
        },
        // Refused or throttled: the same form, the same words whether or not the email exists.
        expects: { refusal: true },
        again: (state, status) =>
          page.render(SignInPage({ frame: page.frame(), email, next, error: state.refusal }), status),
      });
    },
    'anyone',
  ),
];

/** The browser a session was signed in from, as the Sessions page names it. */
export const userAgentOf = (request: FastifyRequest) => {
  const agent = request.headers['user-agent'];
  return typeof agent === 'string' && agent !== '' ? agent : null;
};

function SignInPage(props: {
  frame: Frame;
  email: string;
  next: string;
  /** The refusal to show (always the same words for an unknown email and a wrong password). */
  error?: string | undefined;
  notice?: string | undefined;
}) {
  const errors = new Map<string, string[]>();
  return (
    <Layout frame={props.frame} title="Sign in" notice={props.notice}>
      <div class="narrow">
        <h1>Sign in to eventplan</h1>
        {props.error && (
          <ErrorSummary problems={[{ field: 'email', message: props.error }]} labels={() => 'Sign in'} />
        )}
        <form method="post" action={href.signIn()} novalidate>
          <CsrfField token={props.frame.csrf} />
          <input type="hidden" name="next" value={props.next} />
          <TextField
            name="email"
            label="Email"
            type="email"
            value={props.email}
            errors={errors}
            autocomplete="username"
            required
          />
          <TextField
            name="password"
            label="Password"
            type="password"
            value=""
            errors={errors}
            autocomplete="current-password"
            required
          />
          <div class="form-actions">
            <button type="submit" class="primary">
              Sign in
            </button>
          </div>
        </form>
        <p class="hint">No password yet? Ask your operator for an invitation link.</p>
      </div>
    </Layout>
  );
}
