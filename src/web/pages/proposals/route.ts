/**
 * `/app/events/{id}/proposals`: the Proposals tab (D24), its CSV, and the award and decline pages.
 * Every read goes through `viewEventSourcing` (404 for an event not granted to the person); every
 * decision through the same use cases as the API and the CLI, carrying the version the page was read at.
 */
import { personRequester } from '../../../app/planning.js';
import type { RequestDocument } from '../../../app/sourcing.js';
import {
  awardVenueRequest,
  declineVenueRequest,
  type EventSourcingView,
  viewEventSourcing,
} from '../../../app/venue-requests.js';
import { assertMayAward, assertMayDecline } from '../../../domain/award.js';
import {
  EventNotSourcingError,
  ProposalExpiredError,
  RequestNotProposedError,
} from '../../../domain/errors.js';
import type { EventStatus } from '../../../domain/types.js';
import { DECLINE_REASONS, isRequestStatus } from '../../../domain/venue-request.js';
import { attachment, safeFileName, toCsv } from '../../csv.js';
import { day } from '../../format.js';
import { type FormProblem, field } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { comparisonCsvRows, proposalComparison } from '../../proposal-table.js';
import { submitForm } from '../../submit-form.js';
import { declineReasonLabel, requestStatusLabel, statusLabel } from '../../words.js';
import { type DecisionKind, type DecisionModel, DecisionPage } from './decision.js';
import { ProposalsPage } from './view.js';

type DecisionRequest = PageRequest<typeof ROUTES.awardProposal | typeof ROUTES.declineProposal>;

const sourcingOf = (page: PageRequest<typeof ROUTES.proposals>) =>
  viewEventSourcing(page.deps, personRequester(page.person), page.params.id);

/** The event as the tab compares against it: coverage against the room block venues were asked (D26). */
const askedDetails = (view: EventSourcingView) => ({
  ...view.event.details,
  accommodations: view.askedAccommodations,
});

function comparisonOf(view: EventSourcingView, now: Date) {
  return proposalComparison({
    details: askedDetails(view),
    requests: view.requests,
    marks: view.marks,
    now: now.toISOString(),
    latestVersion: view.latestVersion,
    changesSince: view.changesSince,
  });
}

/**
 * Why a decision cannot be made, in words: the domain's refusals of an award or a decline, said for the
 * person on the page; undefined for any other error.
 */
function decisionRefusal(error: unknown, venue: string): string | undefined {
  if (error instanceof ProposalExpiredError) {
    return `${venue}’s proposal was valid until ${day(error.validUntil)}, so it can no longer be awarded. Ask ${venue} for a revision: a revised proposal can be awarded.`;
  }
  if (error instanceof RequestNotProposedError) {
    const status = isRequestStatus(error.status) ? requestStatusLabel(error.status) : 'closed';
    return `${venue}’s request is now “${status}”: only a proposal that is received and not yet decided can be awarded or declined.`;
  }
  if (error instanceof EventNotSourcingError) {
    return `The event is now ${statusLabel(error.status as EventStatus)}: its venues can no longer be awarded.`;
  }
  return undefined;
}

/** Whether the decision is open now, before any form: the words of why not, or undefined. */
function blockedNow(kind: DecisionKind, view: EventSourcingView, request: RequestDocument, now: Date) {
  const input = {
    eventStatus: view.event.details.status,
    requests: view.requests,
    requestId: request.id,
  };
  try {
    if (kind === 'award') assertMayAward({ ...input, proposal: request.proposal, now: now.toISOString() });
    else assertMayDecline(input);
  } catch (error) {
    const words = decisionRefusal(error, request.venue.name);
    if (words) return words;
    throw error;
  }
  return undefined;
}

interface DecisionShown {
  reason?: string;
  comment?: string;
  problems?: FormProblem[];
  stale?: true;
  refusal?: string;
}

/** The request the address names, among the event's, with the event's sourcing as it is now; 404 when none. */
async function decisionOf(page: DecisionRequest) {
  const view = await viewEventSourcing(page.deps, personRequester(page.person), page.params.id);
  const request = view.requests.find((candidate) => candidate.id === page.params.requestId);
  return { view, request };
}

async function decisionPage(page: DecisionRequest, kind: DecisionKind, shown: DecisionShown, status = 200) {
  const { view, request } = await decisionOf(page);
  if (!request) return page.notFound();
  const now = page.deps.clock.now();
  const blocked = blockedNow(kind, view, request, now);
  const model: DecisionModel = {
    kind,
    eventId: view.event.details.id,
    eventName: view.event.details.name,
    eventStatus: view.event.details.status,
    request,
    others: view.requests.filter((other) => other.id !== request.id),
    // A refused form takes the version now: what it shows is what a second press decides on.
    version: view.version,
    // After a refused post the alert says why; the box of an ordinary visit would say it twice.
    ...(blocked && !shown.refusal ? { blocked } : {}),
    reason: shown.reason ?? '',
    comment: shown.comment ?? '',
    problems: shown.problems ?? [],
    stale: shown.stale ?? false,
    ...(shown.refusal ? { refusal: shown.refusal } : {}),
  };
  return page.render(DecisionPage({ frame: page.frame(), model }), status);
}

/** A decline's problems in the words of its form: a reason is chosen, not typed; "Another reason" needs a comment. */
function declineProblems(problems: readonly FormProblem[], reason: string): FormProblem[] {
  return problems.map((problem) => {
    if (problem.field === 'reason') {
      return { field: 'reason', message: 'Choose why you decline this proposal.' };
    }
    if (problem.field === 'comment' && reason === 'other' && /^Enter a comment/.test(problem.message)) {
      return {
        field: 'comment',
        message: `Say why in a comment: the reason “${declineReasonLabel('other')}” needs one.`,
      };
    }
    return problem;
  });
}

function decide(kind: DecisionKind) {
  return async (page: DecisionRequest) => {
    const { id, requestId } = page.params;
    const { request } = await decisionOf(page);
    if (!request) return page.notFound();
    const reason = field(page.form, 'reason');
    const comment = field(page.form, 'comment');
    const precondition = { sourcingVersion: field(page.form, 'version') };
    const planner = personRequester(page.person);
    return submitForm(page, {
      change: () =>
        kind === 'award'
          ? awardVenueRequest(page.deps, planner, id, requestId, { comment }, precondition)
          : declineVenueRequest(
              page.deps,
              planner,
              id,
              requestId,
              // Only a reason of the list is sent as chosen; anything else is sent as none, to be refused.
              { reason: (DECLINE_REASONS as readonly string[]).includes(reason) ? reason : '', comment },
              precondition,
            ),
      done: () => page.redirect(href.proposals(id), kind === 'award' ? 'awarded' : 'declined'),
      expects: {
        problems: true,
        stale: true,
        refusal: (error) => decisionRefusal(error, request.venue.name),
      },
      again: (state, status) =>
        decisionPage(
          page,
          kind,
          {
            reason,
            comment,
            ...(state.problems ? { problems: declineProblems(state.problems, reason) } : {}),
            ...(state.stale ? { stale: true } : {}),
            ...(state.refusal ? { refusal: state.refusal } : {}),
          },
          status,
        ),
    });
  };
}

export const proposals: PageModule = [
  loader(ROUTES.proposals, async (page) => {
    const view = await sourcingOf(page);
    const comparison = comparisonOf(view, page.deps.clock.now());
    return page.render(
      ProposalsPage({
        frame: page.frame(),
        model: { details: askedDetails(view), comparison },
        notice: page.notice,
      }),
    );
  }),

  loader(ROUTES.proposalsCsv, async (page) => {
    const view = await viewEventSourcing(page.deps, personRequester(page.person), page.params.id);
    const comparison = comparisonOf(view, page.deps.clock.now());
    const name = safeFileName(`${view.event.details.name} proposals`, 'csv', 'proposals');
    return page.reply
      .code(200)
      .type('text/csv; charset=utf-8')
      .header('content-disposition', attachment(name))
      .header('cache-control', 'no-store')
      .send(toCsv(comparisonCsvRows(comparison)));
  }),

  loader(ROUTES.awardProposal, (page) => decisionPage(page, 'award', {})),
  action(ROUTES.awardProposal, decide('award')),
  loader(ROUTES.declineProposal, (page) => decisionPage(page, 'decline', {})),
  action(ROUTES.declineProposal, decide('decline')),
];
