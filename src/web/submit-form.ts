/**
 * The one place where a form's change meets the domain's refusals. Success is a 303 to a page to GET;
 * a refusal the form expects is the form again, with what the person typed and each problem beside
 * its control, or a page to go to; anything else goes on to the dashboard's error page.
 */
import {
  AgendaSessionsOrphanedError,
  ChecklistIncompleteError,
  type ChecklistItem,
  EventCancelledError,
  EventNotSourcingError,
  MoveNotAllowedError,
  NotFoundError,
  NotInAGroupError,
  type OrphanedSession,
  PasswordResetThrottledError,
  PreconditionFailedError,
  type Problem,
  RequestClosedError,
  SignInRefusedError,
  SignInThrottledError,
  ValidationError,
  VenueAlreadyRequestedError,
  VenueArchivedError,
} from '../domain/errors.js';
import type { FormBody, FormProblem } from './forms.js';
import type { PageRequest } from './page-module.js';
import { problemWords } from './problem-words.js';

/** What a refused form shows besides the person's input; each page's model has the parts it shows. */
export interface FormState {
  /** Field problems (400), each beside its control and listed at the top. */
  problems?: FormProblem[];
  /** The event changed since the form was read (409): nothing was written. */
  stale?: true;
  /** Agenda sessions that new meeting-room dates would leave without their days (409). */
  orphans?: OrphanedSession[];
  /** The checklist items that stop the event being sent (409). */
  missing?: ChecklistItem[];
  /** Why nothing was done when no field is to blame: a move not open, no group, a refused sign-in. */
  refusal?: string;
  /** The link the form belongs to can no longer be used (404). */
  gone?: true;
  /** The event was cancelled meanwhile (409): nothing was written, and the page says so. */
  cancelled?: true;
}

/** The refusals a form shows; any other error is not the form's to show. */
export interface ExpectedRefusals {
  /** Field problems, named after the form's controls by `controlOf` when the API's names differ. */
  problems?: true | ((field: string) => string);
  /** The words of those problems, for a form whose controls are not an event's (default: problemWords). */
  words?: (problem: Problem) => string;
  stale?: true;
  orphans?: true;
  missing?: true;
  /** The refusals every form knows, or a page's own: words for the errors it refuses, undefined for others. */
  refusal?: true | ((error: unknown) => string | undefined);
  gone?: true;
  cancelled?: true;
}

/** What a form refused with problems or a refusal shows again: what was typed, and why it was refused. */
export function shownAgain(
  values: FormBody,
  state: FormState,
): { values: FormBody; problems?: FormProblem[]; refusal?: string } {
  return {
    values,
    ...(state.problems ? { problems: state.problems } : {}),
    ...(state.refusal ? { refusal: state.refusal } : {}),
  };
}

/**
 * Runs `change`; on success answers with `done`, on an expected refusal with `again` (the form with
 * the state to show).
 */
export async function submitForm<Result>(
  page: PageRequest,
  form: {
    change: () => Promise<Result>;
    done: (result: Result) => unknown;
    expects: ExpectedRefusals;
    again: (state: FormState, status: number) => unknown;
  },
): Promise<unknown> {
  let result: Result;
  try {
    result = await form.change();
  } catch (error) {
    const refused = refusalOf(error, form.expects);
    if (!refused) throw error;
    if (refused.retryAfterSeconds !== undefined) {
      page.reply.header('retry-after', String(refused.retryAfterSeconds));
    }
    return form.again(refused.state, refused.status);
  }
  return form.done(result);
}

interface Refused {
  state: FormState;
  status: number;
  retryAfterSeconds?: number;
}

function refusalOf(error: unknown, expects: ExpectedRefusals): Refused | undefined {
  if (error instanceof ValidationError && expects.problems) {
    const controlOf = expects.problems === true ? undefined : expects.problems;
    return { status: 400, state: { problems: formProblems(error.problems, controlOf, expects.words) } };
  }
  if (error instanceof PreconditionFailedError && expects.stale)
    return { status: 409, state: { stale: true } };
  if (error instanceof AgendaSessionsOrphanedError && expects.orphans) {
    return { status: 409, state: { orphans: error.orphanedSessions } };
  }
  if (error instanceof ChecklistIncompleteError && expects.missing) {
    return { status: 409, state: { missing: error.missing } };
  }
  if (typeof expects.refusal === 'function') {
    const refusal = expects.refusal(error);
    if (refusal !== undefined) return { status: 409, state: { refusal } };
  }
  if (expects.refusal) {
    // The move page says where the event stands now; the domain's message names its status code.
    if (error instanceof MoveNotAllowedError) {
      return { status: 409, state: { refusal: 'This move is not open to you now.' } };
    }
    if (error instanceof NotInAGroupError) return { status: 409, state: { refusal: error.message } };
    // Venues (D20, D21): the domain's messages name statuses by their codes, so each is said here.
    if (error instanceof VenueArchivedError) {
      return {
        status: 409,
        state: { refusal: 'This venue is archived: it can no longer be changed or asked.' },
      };
    }
    if (error instanceof VenueAlreadyRequestedError) {
      return {
        status: 409,
        state: { refusal: 'This venue is already on the event: each venue is asked once.' },
      };
    }
    if (error instanceof EventNotSourcingError) {
      const refusal = 'The event is booked, completed or cancelled: venues can no longer be asked.';
      return { status: 409, state: { refusal } };
    }
    if (error instanceof RequestClosedError) {
      return {
        status: 409,
        state: { refusal: 'This request is already closed: nothing more can be done on it.' },
      };
    }
    if (error instanceof SignInRefusedError) return { status: 401, state: { refusal: error.message } };
    if (error instanceof SignInThrottledError) {
      const { retryAfterSeconds } = error;
      const refusal = `Too many failed sign-in attempts. ${tryAgainIn(retryAfterSeconds)}`;
      return { status: 429, state: { refusal }, retryAfterSeconds };
    }
    if (error instanceof PasswordResetThrottledError) {
      const { retryAfterSeconds } = error;
      const refusal = `Too many requests for a password link. ${tryAgainIn(retryAfterSeconds)}`;
      return { status: 429, state: { refusal }, retryAfterSeconds };
    }
  }
  // Stale too: should the event be reopened by the time the page is drawn, the form is just out of date.
  if (error instanceof EventCancelledError && expects.cancelled) {
    return { status: 409, state: { cancelled: true, stale: true } };
  }
  if (error instanceof NotFoundError && expects.gone) return { status: 404, state: { gone: true } };
  return undefined;
}

/** How long to wait, in whole minutes and in words. */
function tryAgainIn(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Try again in ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`;
}

/**
 * Problems named after the form's controls (list entries such as `decisionFactors[3]` belong to their
 * textarea), each in the dashboard's words rather than the API's.
 */
function formProblems(
  problems: readonly Problem[],
  controlOf: (field: string) => string = (name) => name,
  words: (problem: Problem) => string = problemWords,
): FormProblem[] {
  return problems.map((problem) => {
    const field = controlOf(problem.field).replace(/^(decisionFactors|additionalServices)\[\d+\]$/, '$1');
    return { field, message: words({ ...problem, field }) };
  });
}
