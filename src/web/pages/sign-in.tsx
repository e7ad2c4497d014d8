/** Signing in, and choosing a password from an invitation link. */
import { CsrfField, ErrorSummary, type Frame, Layout, TextField } from './layout.js';

export function SignInPage(props: {
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
        <form method="post" action="/app/sign-in" novalidate>
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

export function InvitePage(props: {
  frame: Frame;
  token: string;
  /** The invited person, or undefined when the link cannot be used. */
  invitee: { email: string; name: string | null } | undefined;
  problems: Array<{ field: string; message: string }>;
}) {
  const errors = new Map<string, string[]>();
  for (const problem of props.problems)
    errors.set(problem.field, [...(errors.get(problem.field) ?? []), problem.message]);
  if (!props.invitee) {
    return (
      <Layout frame={props.frame} title="Invitation not valid">
        <div class="narrow">
          <h1>This invitation cannot be used</h1>
          <p>
            The link has been used already, has expired (links last 24 hours) or was replaced by a newer one.
            Ask your operator for a new invitation, or <a href="/app/sign-in">sign in</a> if you have a
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
        <form method="post" action={`/app/invite/${props.token}`} novalidate>
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
