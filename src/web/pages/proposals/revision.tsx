/**
 * `/app/events/{id}/proposals/{requestId}/revision` (D26): asking a venue to revise its proposal, said
 * before it is done (which version the proposal answers, what the venue is sent), with an optional
 * message. Offered on the Proposals tab for a proposal that answers an older version or has expired.
 */
import { personRequester } from '../../../app/planning.js';
import { requestRevision } from '../../../app/request-versions.js';
import type { RequestDocument } from '../../../app/sourcing.js';
import { viewEventSourcing } from '../../../app/venue-requests.js';
import { EventNotSourcingError, RequestNotProposedError } from '../../../domain/errors.js';
import { LIMITS } from '../../../domain/types.js';
import { isSourcing } from '../../../domain/venue-request.js';
import { count, day } from '../../format.js';
import { type FormBody, type FormProblem, field, problemsByField } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import { CsrfField, ErrorAlert, ErrorSummary, type Frame, Layout, TextArea } from '../../layout.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { shownAgain, submitForm } from '../../submit-form.js';

type RevisionRequest = PageRequest<typeof ROUTES.requestRevision>;

interface Shown {
  values?: FormBody;
  problems?: FormProblem[];
  refusal?: string;
}

function revisionRefusal(error: unknown): string | undefined {
  if (error instanceof RequestNotProposedError) {
    return 'This venue’s proposal is no longer standing (it was decided, withdrawn or taken back): there is nothing to revise.';
  }
  if (error instanceof EventNotSourcingError) {
    return 'The event is booked, completed or cancelled: venues are no longer asked.';
  }
  return undefined;
}

async function revisionPage(page: RevisionRequest, shown: Shown, status = 200) {
  const view = await viewEventSourcing(page.deps, personRequester(page.person), page.params.id);
  const request = view.requests.find((candidate) => candidate.id === page.params.requestId);
  if (!request) return page.notFound();
  return page.render(
    RevisionPage({
      frame: page.frame(),
      model: {
        eventId: view.event.details.id,
        eventName: view.event.details.name,
        sourcing: isSourcing(view.event.details.status),
        latestVersion: view.latestVersion,
        request,
        values: shown.values ?? {},
        problems: shown.problems ?? [],
        ...(shown.refusal ? { refusal: shown.refusal } : {}),
      },
    }),
    status,
  );
}

export const revisionPages: PageModule = [
  loader(ROUTES.requestRevision, (page) => revisionPage(page, {})),

  action(ROUTES.requestRevision, async (page) => {
    const { id, requestId } = page.params;
    const message = field(page.form, 'message').trim();
    return submitForm(page, {
      change: () =>
        requestRevision(
          page.deps,
          personRequester(page.person),
          id,
          requestId,
          message === '' ? {} : { message },
        ),
      done: () => page.redirect(href.proposals(id), 'revision-requested'),
      expects: {
        problems: true,
        words: () => `Write at most ${count(LIMITS.freeText)} characters.`,
        refusal: revisionRefusal,
        gone: true,
      },
      again: (state, status) => revisionPage(page, shownAgain(page.form, state), status),
    });
  }),
];

interface RevisionModel {
  eventId: string;
  eventName: string;
  sourcing: boolean;
  latestVersion: number;
  request: RequestDocument;
  values: FormBody;
  problems: FormProblem[];
  refusal?: string;
}

/** Why the venue is asked, in words: the version its proposal answers, or its validity passed. */
function why(model: RevisionModel): string {
  const { request, latestVersion } = model;
  const proposal = request.proposal!;
  const venue = request.venue.name;
  if (proposal.requestVersion < latestVersion) {
    return `${venue}’s proposal answers version ${proposal.requestVersion} of the request, which is now at version ${latestVersion}. ${venue} is mailed what changed since, your message and its link, where it can send a revised proposal.`;
  }
  return `${venue}’s proposal is valid until ${day(proposal.validUntil)}. ${venue} is mailed your message and its link, where it can send a revised proposal.`;
}

function RevisionPage(props: { frame: Frame; model: RevisionModel }) {
  const { model } = props;
  const { request } = model;
  const errors = problemsByField(model.problems);
  const title = `Ask ${request.venue.name} for a revision`;
  const standing = model.sourcing && request.status === 'proposed' && request.proposal !== null;
  return (
    <Layout frame={props.frame} title={`${title}: ${model.eventName}`}>
      <p class="breadcrumb">
        <a href={href.proposals(model.eventId)}>{model.eventName}: proposals</a>
      </p>
      <h1>{title}</h1>
      {model.refusal && (
        <ErrorAlert>
          <h2>Nothing was sent</h2>
          <p>{model.refusal}</p>
        </ErrorAlert>
      )}
      <ErrorSummary problems={model.problems} labels={() => 'Message to the venue'} />
      {!standing ? (
        <p>
          {request.venue.name} has no proposal standing now: there is nothing to revise.{' '}
          <a href={href.proposals(model.eventId)}>Back to the proposals</a>
        </p>
      ) : (
        <>
          <p>{why(model)}</p>
          <form method="post" action={href.requestRevision(model.eventId, request.id)} novalidate>
            <CsrfField token={props.frame.csrf} />
            <TextArea
              name="message"
              label="Message to the venue"
              value={field(model.values, 'message')}
              errors={errors}
              hint={`Optional. At most ${count(LIMITS.freeText)} characters, sent as plain text.`}
              rows={4}
            />
            <div class="form-actions">
              <button type="submit" class="primary">
                Ask for a revision
              </button>
              <a href={href.proposals(model.eventId)}>Cancel</a>
            </div>
          </form>
        </>
      )}
    </Layout>
  );
}
