/**
 * The venue's page's loaders and actions: GET reads through `openVenueRequest` (the first opening marks
 * the request viewed, D22), POST answers through `submitVenueProposal` and `turnDownVenueRequest`. A
 * refused form is the form again with what was typed and every problem beside its control (400); a
 * request closed meanwhile is its page saying nothing was sent (409); success is a 303 to the request.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app/deps.js';
import {
  askVenueQuestion,
  openVenueRequest,
  readVenueRequest,
  submitVenueProposal,
  turnDownVenueRequest,
} from '../../app/venue-portal.js';
import {
  EventNotSourcingError,
  type Problem,
  RequestChangedError,
  RequestClosedError,
  RequestNotSentError,
  ValidationError,
} from '../../domain/errors.js';
import { type FormBody, type FormProblem, field } from '../forms.js';
import type { Frame } from '../layout.js';
import { seeOther, sendPage } from '../render.js';
import { VENUE_ROUTES, venueHref, venueNoticeOf } from './links.js';
import { proposalBody, proposalFormValues } from './proposal-form.js';
import { ProposalFormPage, RefusedPage, RequestPage, TurnDownPage } from './view.js';
import { venueProblemWords } from './words.js';

/** The frame a page is drawn in: assets and a form token bound to the request the link leads to. */
export type VenueFrameOf = (request: FastifyRequest, reply: FastifyReply) => Frame;

const tokenOf = (request: FastifyRequest) => (request.params as { token: string }).token;
const formOf = (request: FastifyRequest) => (request.body ?? {}) as FormBody;

/** The domain's problems named after the form's controls, in the page's words. */
function formProblems(
  problems: readonly Problem[],
  controlOf: (field: string) => string = (name) => name,
): FormProblem[] {
  return problems.map((problem) => {
    const control = controlOf(problem.field);
    return { field: control, message: venueProblemWords({ ...problem, field: control }) };
  });
}

/** Refusals of a request that takes no answer now: closed, the event no longer sourcing, or not sent. */
const isClosedRefusal = (error: unknown) =>
  error instanceof RequestClosedError ||
  error instanceof EventNotSourcingError ||
  error instanceof RequestNotSentError;

export function venueRoutes(app: FastifyInstance, deps: AppDeps, frameOf: VenueFrameOf) {
  /** The request's page again, saying nothing was sent because it is closed. */
  const refused = async (request: FastifyRequest, reply: FastifyReply) => {
    const page = await readVenueRequest(deps, tokenOf(request));
    return sendPage(
      reply,
      RefusedPage({ frame: frameOf(request, reply), token: tokenOf(request), page }),
      409,
    );
  };

  app.get(VENUE_ROUTES.request, async (request, reply) => {
    const token = tokenOf(request);
    const page = await openVenueRequest(deps, token);
    return sendPage(
      reply,
      RequestPage({ frame: frameOf(request, reply), token, page, notice: venueNoticeOf(request.query) }),
    );
  });

  app.get(VENUE_ROUTES.proposal, async (request, reply) => {
    const token = tokenOf(request);
    const page = await openVenueRequest(deps, token);
    if (!page.open) return seeOther(reply, venueHref.request(token));
    const values = proposalFormValues(page.proposal, page.event);
    return sendPage(
      reply,
      ProposalFormPage({ frame: frameOf(request, reply), token, page, values, problems: [] }),
    );
  });

  app.post(VENUE_ROUTES.proposal, { preHandler: app.csrfProtection }, async (request, reply) => {
    const token = tokenOf(request);
    const form = formOf(request);
    const { body, controlOf } = proposalBody(form);
    // The version of the request the form was opened on (D26); a form without one is judged as it is.
    const opened = /^[1-9][0-9]{0,8}$/.exec(field(form, 'requestVersion').trim());
    const openedOn = opened ? Number(opened[0]) : null;
    try {
      const proposal = await submitVenueProposal(deps, token, body, openedOn);
      return seeOther(
        reply,
        venueHref.request(token, proposal.revision > 1 ? 'proposal-revised' : 'proposal-sent'),
      );
    } catch (error) {
      if (isClosedRefusal(error)) return refused(request, reply);
      if (error instanceof RequestChangedError) {
        const page = await readVenueRequest(deps, token);
        const changedSince = page.updates.filter((update) => update.version > error.openedOn);
        return sendPage(
          reply,
          ProposalFormPage({
            frame: frameOf(request, reply),
            token,
            page,
            values: form,
            problems: [],
            changedSince,
          }),
          409,
        );
      }
      if (!(error instanceof ValidationError)) throw error;
      const page = await readVenueRequest(deps, token);
      const problems = formProblems(error.problems, controlOf);
      return sendPage(
        reply,
        ProposalFormPage({ frame: frameOf(request, reply), token, page, values: form, problems }),
        400,
      );
    }
  });

  app.post(VENUE_ROUTES.question, { preHandler: app.csrfProtection }, async (request, reply) => {
    const token = tokenOf(request);
    const form = formOf(request);
    try {
      await askVenueQuestion(deps, token, { text: field(form, 'text') });
      return seeOther(reply, `${venueHref.request(token, 'question-asked')}#questions`);
    } catch (error) {
      if (isClosedRefusal(error)) return refused(request, reply);
      if (!(error instanceof ValidationError)) throw error;
      const page = await readVenueRequest(deps, token);
      const problems = error.problems.map((problem) => ({
        field: 'text',
        message:
          problem.code === 'too_long'
            ? 'Write at most 1,000 characters.'
            : 'Write your question: it cannot be empty.',
      }));
      return sendPage(
        reply,
        RequestPage({ frame: frameOf(request, reply), token, page, question: { values: form, problems } }),
        400,
      );
    }
  });

  app.get(VENUE_ROUTES.turnDown, async (request, reply) => {
    const token = tokenOf(request);
    const page = await openVenueRequest(deps, token);
    if (!page.open) return seeOther(reply, venueHref.request(token));
    return sendPage(
      reply,
      TurnDownPage({ frame: frameOf(request, reply), token, page, values: {}, problems: [] }),
    );
  });

  app.post(VENUE_ROUTES.turnDown, { preHandler: app.csrfProtection }, async (request, reply) => {
    const token = tokenOf(request);
    const form = formOf(request);
    const reason = field(form, 'reason');
    const body = { ...(reason === '' ? {} : { reason }), comment: field(form, 'comment') };
    try {
      await turnDownVenueRequest(deps, token, body);
      return seeOther(reply, venueHref.request(token, 'turned-down'));
    } catch (error) {
      if (isClosedRefusal(error)) return refused(request, reply);
      if (!(error instanceof ValidationError)) throw error;
      const page = await readVenueRequest(deps, token);
      return sendPage(
        reply,
        TurnDownPage({
          frame: frameOf(request, reply),
          token,
          page,
          values: form,
          problems: formProblems(error.problems),
        }),
        400,
      );
    }
  });
}
