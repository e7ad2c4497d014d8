/** The frame of every dashboard page, and the form controls every form uses (GitHub Primer's patterns). */
import type { ComponentChildren, JSX } from 'preact';
import type { EventStatus } from '../domain/types.js';
import { type FormProblem, fieldId } from './forms.js';
import { href } from './href.js';
import { controlFor } from './typed-controls.js';
import { fieldLabel, statusLabel } from './words.js';

export interface Frame {
  /** Asset URLs, versioned by content so they can be cached for a year. */
  assets: { css: string; roomsScript: string; placesScript: string };
  /** The signed-in person, when there is one: their name in the header and the sign-out button. */
  person?: { name: string | null; email: string };
  /** The form token for this session (sign-out is a POST too). */
  csrf: string;
}

export function Layout(props: {
  frame: Frame;
  title: string;
  children: ComponentChildren;
  scripts?: string[];
  /** A one-line message after a change (Post/Redirect/Get). */
  notice?: string | undefined;
  /** Where the name in the header leads (the event list); null on pages for people without an account. */
  home?: string | null;
}) {
  const { frame } = props;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · eventplan`}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={frame.assets.css} />
        {props.scripts?.map((src) => (
          <script src={src} defer />
        ))}
      </head>
      <body>
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <header class="site-header">
          {props.home === null ? (
            <span class="brand">eventplan</span>
          ) : (
            <a class="brand" href={props.home ?? href.events()}>
              eventplan
            </a>
          )}
          {frame.person && (
            <nav aria-label="Main">
              <ul>
                <li>
                  <a href={href.events()}>Events</a>
                </li>
                <li>
                  <a href={href.newEvent()}>New event</a>
                </li>
                <li>
                  <a href={href.venues()}>Venues</a>
                </li>
                <li>
                  <a href={href.account()}>Account</a>
                </li>
                <li>
                  <a href={href.sessions()}>Signed-in devices</a>
                </li>
              </ul>
              <span class="who">{frame.person.name ?? frame.person.email}</span>
              <form method="post" action={href.signOut()} class="inline">
                <input type="hidden" name="_csrf" value={frame.csrf} />
                <button type="submit" class="link-button">
                  Sign out
                </button>
              </form>
            </nav>
          )}
        </header>
        <main id="main" tabIndex={-1}>
          {props.notice && <output class="notice">{props.notice}</output>}
          {props.children}
        </main>
      </body>
    </html>
  );
}

/**
 * A box that says why nothing was done, focused when the page loads so that a keyboard or screen-reader
 * user starts from it after a refused sign-in or save (the page is server-rendered: `autofocus` needs no
 * script). Only pages that answer a refused form show one, so focus never jumps on an ordinary visit.
 */
export function ErrorAlert(props: { children: ComponentChildren; labelledBy?: string }) {
  return (
    // biome-ignore lint/a11y/noAutofocus: focus goes to what went wrong, only on the page that answers a refused form.
    <div class="error-summary" role="alert" aria-labelledby={props.labelledBy} tabIndex={-1} autoFocus>
      {props.children}
    </div>
  );
}

/** Every problem at the top, each linking to its control; `labels` names the fields for people (default: the event's). */
export function ErrorSummary(props: {
  problems: readonly FormProblem[];
  labels?: (field: string) => string;
}) {
  if (props.problems.length === 0) return null;
  const label = props.labels ?? fieldLabel;
  return (
    <ErrorAlert labelledBy="error-summary-title">
      <h2 id="error-summary-title">
        {props.problems.length === 1
          ? 'There is a problem; nothing was saved'
          : `There are ${props.problems.length} problems; nothing was saved`}
      </h2>
      <ul>
        {props.problems.map((problem) => (
          <li>
            <a href={`#${fieldId(problem.field)}`}>
              {label(problem.field)}: {problem.message}
            </a>
          </li>
        ))}
      </ul>
    </ErrorAlert>
  );
}

export function ErrorText(props: { id: string; messages: readonly string[] | undefined }) {
  if (!props.messages || props.messages.length === 0) return null;
  return (
    <p class="field-error" id={`${props.id}-error`}>
      {props.messages.join(' ')}
    </p>
  );
}

interface ControlProps {
  name: string;
  label: string;
  value: string;
  errors: ReadonlyMap<string, string[]>;
  hint?: string;
  required?: boolean;
}

function describedBy(id: string, hint: string | undefined, invalid: boolean): string | undefined {
  const ids = [hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ');
  return ids || undefined;
}

export function TextField(
  props: ControlProps & {
    type?: 'text' | 'email' | 'password' | 'date' | 'time' | 'number' | 'search';
    step?: string;
    autocomplete?: string;
  },
) {
  const id = fieldId(props.name);
  const messages = props.errors.get(props.name);
  const invalid = Boolean(messages?.length);
  // A refused entry the type would blank ("25:00" in a time box) is shown as typed, in a text box.
  const control = controlFor(props.type ?? 'text', props.value);
  return (
    <div class={invalid ? 'field invalid' : 'field'}>
      <label for={id}>
        {props.label}
        {props.required && <span aria-hidden="true"> *</span>}
      </label>
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      <ErrorText id={id} messages={messages} />
      <input
        {...({
          id,
          name: props.name,
          ...control,
          value: props.value,
          step: control.type === 'number' ? props.step : undefined,
          required: props.required,
          autocomplete: props.autocomplete,
          'aria-invalid': invalid ? 'true' : undefined,
          'aria-describedby': describedBy(id, props.hint, invalid),
        } as JSX.IntrinsicElements['input'])}
      />
    </div>
  );
}

/** A text area; `id` when a page holds several forms with the same field (else the field's own id). */
export function TextArea(props: ControlProps & { rows?: number; id?: string }) {
  const id = props.id ?? fieldId(props.name);
  const messages = props.errors.get(props.name);
  const invalid = Boolean(messages?.length);
  return (
    <div class={invalid ? 'field invalid' : 'field'}>
      <label for={id}>{props.label}</label>
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      <ErrorText id={id} messages={messages} />
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 3}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={describedBy(id, props.hint, invalid)}
      >
        {props.value}
      </textarea>
    </div>
  );
}

export const CsrfField = (props: { token: string }) => (
  <input type="hidden" name="_csrf" value={props.token} />
);

export const StatusBadge = (props: { status: EventStatus }) => (
  <span class={`status status-${props.status}`}>{statusLabel(props.status)}</span>
);
