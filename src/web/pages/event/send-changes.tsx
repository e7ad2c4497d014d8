/**
 * `/app/events/{id}/send-changes` (D26): the changes not yet sent to venues, in words, with an
 * optional message, confirmed before they go (as D16 confirms a move). Sending makes the next version
 * of the request: every venue still asked is mailed the changes and reads them on its page.
 */
import { type EventView, personRequester, viewMyEvent } from '../../../app/planning.js';
import { sendRequestVersion } from '../../../app/request-versions.js';
import { EventNotAskingVenuesError, NothingToSendError } from '../../../domain/errors.js';
import { LIMITS } from '../../../domain/types.js';
import { count } from '../../format.js';
import { type FormBody, type FormProblem, field, problemsByField } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import { CsrfField, ErrorAlert, ErrorSummary, type Frame, Layout, TextArea } from '../../layout.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { shownAgain, submitForm } from '../../submit-form.js';

type SendRequest = PageRequest<typeof ROUTES.sendChanges>;

interface Shown {
  values?: FormBody;
  problems?: FormProblem[];
  refusal?: string;
}

async function sendPage(page: SendRequest, shown: Shown, status = 200) {
  const view = await viewMyEvent(page.deps, page.person, page.params.id);
  return page.render(SendChangesPage({ frame: page.frame(), view, ...shown }), status);
}

/** The refusals of a send, in words: nothing to send (a second click), or venues no longer asked. */
function sendRefusal(error: unknown): string | undefined {
  if (error instanceof NothingToSendError) {
    return 'Venues already read the request as it is, and this message was sent already: there is nothing more to send.';
  }
  if (error instanceof EventNotAskingVenuesError) {
    return 'Changes go to venues only while they are asked for proposals: this event is not, now.';
  }
  return undefined;
}

const messageProblemWords = () => `Write at most ${count(LIMITS.freeText)} characters.`;

export const sendChangesPages: PageModule = [
  loader(ROUTES.sendChanges, (page) => sendPage(page, {})),

  action(ROUTES.sendChanges, async (page) => {
    const { id } = page.params;
    const message = field(page.form, 'message').trim();
    return submitForm(page, {
      change: () =>
        sendRequestVersion(page.deps, personRequester(page.person), id, message === '' ? {} : { message }),
      done: () => page.redirect(href.event(id, 'venues'), 'changes-sent'),
      expects: { problems: true, words: messageProblemWords, refusal: sendRefusal },
      again: (state, status) => sendPage(page, shownAgain(page.form, state), status),
    });
  }),
];

/** The changes not sent to venues, each in words: "Attendees: 120 → 150". */
export function UnsentChangesList(props: { changes: NonNullable<EventView['unsent']>['changes'] }) {
  return (
    <ul class="unsent-changes">
      {props.changes.map((change) => (
        <li>
          {change.label}: {change.before} → {change.after}
        </li>
      ))}
    </ul>
  );
}

/** "Send the changes to 3 venues", or the message alone when nothing is pending. */
export function sendLabel(view: Pick<EventView, 'unsent'>, openRequests: number): string {
  const venues = openRequests === 1 ? '1 venue' : `${count(openRequests)} venues`;
  return view.unsent ? `Send the changes to ${venues}` : `Send the message to ${venues}`;
}

function SendChangesPage(props: { frame: Frame; view: EventView } & Shown) {
  const { view } = props;
  const { details } = view;
  const errors = problemsByField(props.problems ?? []);
  const asking = details.status === 'wait_for_proposals' || details.status === 'proposals_received';
  const open = view.requests.filter((request) => ['sent', 'viewed', 'proposed'].includes(request.status));
  const title = 'Send the changes to venues';
  return (
    <Layout frame={props.frame} title={`${title}: ${details.name}`}>
      <p class="breadcrumb">
        <a href={href.event(details.id, 'venues')}>{details.name}</a>
      </p>
      <h1>{title}</h1>
      {props.refusal && (
        <ErrorAlert>
          <h2>Nothing was sent</h2>
          <p>{props.refusal}</p>
        </ErrorAlert>
      )}
      <ErrorSummary problems={props.problems ?? []} labels={() => 'Message to the venues'} />
      {!asking ? (
        <p>
          Changes go to venues only while they are asked for proposals: this event is not, now.{' '}
          <a href={href.event(details.id)}>Back to the event</a>
        </p>
      ) : (
        <>
          {view.unsent ? (
            <>
              <p>Venues read the request as it was last sent. Since then:</p>
              <UnsentChangesList changes={view.unsent.changes} />
            </>
          ) : (
            <p>
              Venues read the request as it is: nothing has changed since it was last sent. You may still send
              them a message.
            </p>
          )}
          <p>
            {open.length === 0
              ? 'No venue is asked now: the changes are kept for venues asked later, who read the request as it is.'
              : `${open.length === 1 ? 'The venue' : `Each of the ${count(open.length)} venues`} still asked (${open.map((request) => request.venue.name).join(', ')}) gets a mail with ${view.unsent ? 'each change and ' : ''}your message, and its page shows the request as it is now. Venues whose request is closed are not told.`}
          </p>
          <form method="post" action={href.sendChanges(details.id)} novalidate>
            <CsrfField token={props.frame.csrf} />
            <TextArea
              name="message"
              label="Message to the venues"
              value={field(props.values ?? {}, 'message')}
              errors={errors}
              hint={`${view.unsent ? 'Optional' : 'Nothing changed, so the message is what is sent'}. At most ${count(LIMITS.freeText)} characters, sent as plain text.`}
              rows={4}
            />
            <div class="form-actions">
              <button type="submit" class="primary">
                {sendLabel(view, open.length)}
              </button>
              <a href={href.event(details.id, 'venues')}>Cancel</a>
            </div>
          </form>
        </>
      )}
    </Layout>
  );
}
