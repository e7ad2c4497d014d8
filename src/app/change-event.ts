/**
 * The one way an event changes, whoever asks: the API, the dashboard and the operator's command line
 * all call `changeEvent` (and `createEventBy` for a new event). In order, it looks the event up in the
 * requester's scope, resolves the places the change sends, applies the pure domain change, describes
 * it for the change log, makes the document and its ETag once, and writes all of it through the
 * store in one transaction, if the precondition still holds. What differs between changes is only the
 * `EventChange` given (event-changes.ts).
 */
import type { Actor, ChangeData, ChangeType, StatusChangeData } from '../domain/changes.js';
import { buildNewEvent } from '../domain/create-event.js';
import { deepEqual } from '../domain/deep-equal.js';
import { PreconditionFailedError } from '../domain/errors.js';
import type { ComposedMail } from '../domain/mail.js';
import { peopleMails } from '../domain/people-mail.js';
import type { Proposal } from '../domain/proposal.js';
import type { VenueQuestion } from '../domain/questions.js';
import { type StoredRequestVersion, venueEventView } from '../domain/request-versions.js';
import type { EventDetails, StoredEvent } from '../domain/types.js';
import type { RequestStep } from '../domain/venue-request.js';
import type { EventDocument, EventSourcing, EventWrite, SourcingWrite } from '../ports/event-repository.js';
import type { IdempotencyClaim } from '../ports/idempotency-repository.js';
import { describeChange } from './change-log.js';
import { type AppDeps, nowText } from './deps.js';
import { eventDocument, ifMatchAllows, storedEtag } from './etag.js';
import { assertEventId, notFound } from './event-ids.js';
import { prepareMail } from './mail.js';
import { readAudience } from './people-notices.js';
import {
  type LocationQuery,
  type ResolvedPlace,
  resolvedLocations,
  resolvePlaces,
  withResolvedPlaces,
} from './places.js';
import { sourcingVersion, VENUE_TOKEN_LENGTH } from './sourcing.js';

type ActorOf<Type extends Actor['type']> = Extract<Actor, { type: Type }>;

/** An API key: any event of the key's organization. */
export interface KeyRequester {
  scope: 'organization';
  organizationId: string;
  actor: ActorOf<'api_key'>;
}

/** A person in the dashboard: only the events granted to them (D15). */
export interface PersonRequester {
  scope: 'grants';
  organizationId: string;
  actor: ActorOf<'person'>;
}

/** The operator's command line: any event, addressed by its id alone. */
export interface OperatorRequester {
  scope: 'any';
  actor: ActorOf<'operator'>;
}

/** A venue answering on its page (D22): the event of the request its link names. */
export interface VenueRequester {
  scope: 'venue';
  organizationId: string;
  actor: ActorOf<'venue'>;
}

/** eventplan itself, on a schedule (D28's reminders): an event of the organization its work names. */
export interface SystemRequester {
  scope: 'system';
  organizationId: string;
  actor: ActorOf<'system'>;
}

/** Who asks for a change: where the event is looked up, and how the change log names them. */
export type Requester = KeyRequester | PersonRequester | OperatorRequester | VenueRequester | SystemRequester;

/** The scheduler's requester for work of `organizationId`. */
export const systemRequester = (organizationId: string): SystemRequester => ({
  scope: 'system',
  organizationId,
  actor: { type: 'system' },
});

/** Who may create an event, and becomes its creator. */
export type Creator = KeyRequester | PersonRequester;

export const OPERATOR: OperatorRequester = { scope: 'any', actor: { type: 'operator' } };

/** What the event must still be for the change to apply; otherwise 412 and nothing is written. */
export type Precondition =
  /** An If-Match header: `*`, or one of its tags is the event's ETag. */
  | { ifMatch: string }
  /** The version a dashboard form carries: the event's ETag when the form was read. */
  | { version: string }
  /**
   * The version of the event with its requests and their proposals when a page was read (sourcing.ts
   * `sourcingVersion`): a decision taken on a page that has gone stale writes nothing (D24).
   */
  | { sourcingVersion: string };

/** What a domain change is given besides the event and its input. */
export interface ChangeContext<Prepared, R extends Requester = Requester> {
  now: string;
  /** A new id, for what the change adds (agenda sessions, requests, proposals). */
  newId: () => string;
  /** A new random token, for the link a request sends its venue (D21). */
  newToken: () => string;
  requester: R;
  /** What the change's `prepare` read (undefined without one). */
  prepared: Prepared;
  /** The event's requests with their latest proposals, read inside the write: only for a sourcing change. */
  sourcing?: EventSourcing;
}

/**
 * What a domain change made. An object, so that a change can come to carry more parts written in the
 * same transaction as the event (more change records, rows of its own, mail to send).
 */
export interface ChangeOutcome {
  /** The event after the change; the same object as before when only its requests changed. */
  event: StoredEvent;
  /** A status move's record data: where from, where to, and the comment or reason given. */
  data?: StatusChangeData;
  /** Mails that tell of the change (D25): queued in the outbox in its transaction, so only if it commits. */
  mails?: readonly ComposedMail[];
  /** A sourcing change's steps on requests, in order: each saved, and recorded after the event's own record. */
  steps?: readonly RequestStep[];
  /** The SHA-256 of the new link token of each request the change sent, by request id. */
  tokenHashes?: ReadonlyMap<string, string>;
  /** Proposals the change adds (D23). */
  proposals?: readonly Proposal[];
  /** Records of the change that are no request step (a version sent, D26): `changedFields` empty, this data. */
  records?: readonly { type: ChangeType; data: ChangeData }[];
  /** A version of the request the change sends (D26). */
  version?: StoredRequestVersion;
  /** The version of the request the change was made on (a venue's form, D26): refused when no longer the latest. */
  openedOn?: number;
  /** More link tokens of requests (their SHA-256), minted for the mails the change writes (D26). */
  links?: readonly { requestId: string; tokenHash: string }[];
  /** Questions the change asks or answers (D27), written as they are. */
  questions?: readonly VenueQuestion[];
  /** The question a venue just asked, with its name: the people granted are told (D27). */
  asked?: { question: VenueQuestion; venueName: string };
}

/** One kind of change (event-changes.ts): the pure change, and what it needs before the write. */
export interface EventChange<Input, Prepared = undefined, R extends Requester = Requester> {
  /** The locations `input` sends, resolved to places before the write; undefined when it sends none. */
  sentLocations?(input: Input): readonly LocationQuery[] | undefined;
  /**
   * Reads the change needs, made once the event is found and before the write: the write itself reads
   * nothing more (on SQLite it runs synchronously, inside the store's transaction).
   */
  prepare?(deps: AppDeps, organizationId: string, eventId: string, input: Input): Promise<Prepared>;
  /**
   * Whether this change reads and writes the event's requests for proposals (D21–D24): it then runs on
   * the store's sourcing path, with `context.sourcing` read inside the write. Plain changes never do.
   */
  sourcing?: true;
  /**
   * Whether the people granted on the event are told by mail of what the change makes (D24: approval
   * asked and answered, proposals and turn-downs): who they are, and what each switched off, is read
   * before the write, and their mails are queued in its transaction.
   */
  tellsPeople?: true;
  /**
   * The change of `current`, pure: its outcome, undefined when nothing changes, or a throw that refuses
   * it (in D5's order: a cancelled event, then every problem of the input, then orphaned sessions).
   */
  apply(current: StoredEvent, input: Input, context: ChangeContext<Prepared, R>): ChangeOutcome | undefined;
}

/** The event after a change (or as it was, when nothing changed), with its document as stored. */
export interface ChangedEvent {
  event: StoredEvent;
  document: EventDocument & { etag: string };
  /** What the change made, as written; undefined when nothing changed. */
  outcome?: ChangeOutcome;
}

/** The organization of the event `id` names within the requester's scope; 404 when there is none. */
export async function organizationInScope(
  deps: AppDeps,
  requester: PersonRequester | OperatorRequester,
  eventId: string,
  id: string,
): Promise<string> {
  if (requester.scope === 'grants') {
    const { organizationId, actor } = requester;
    // An event not granted to the person is the same 404 as one that does not exist.
    if (!(await deps.store.events.findGranted(organizationId, actor.userId, eventId))) throw notFound(id);
    return organizationId;
  }
  const organizationId = await deps.store.events.findOrganizationOf(eventId);
  if (!organizationId) throw notFound(id);
  return organizationId;
}

function preconditionHolds(
  precondition: Precondition,
  stored: EventDocument,
  sourcing: EventSourcing | undefined,
): boolean {
  if ('ifMatch' in precondition) return ifMatchAllows(precondition.ifMatch, storedEtag(stored));
  if ('version' in precondition) return precondition.version === storedEtag(stored);
  return sourcing !== undefined && precondition.sourcingVersion === sourcingVersion(stored, sourcing);
}

/** The places of the locations sent, looked up before the write; undefined when none were sent. */
function placesOf(deps: AppDeps, locations: readonly LocationQuery[] | undefined) {
  return locations === undefined || locations.length === 0 ? undefined : resolvePlaces(deps, locations);
}

/**
 * `next` with its locations' places set. Undefined when that makes it `current` again: locations sent
 * back as read, without their resolved fields, change nothing (and so record nothing, D17).
 */
function withPlaces(
  current: StoredEvent,
  next: StoredEvent,
  places: readonly (ResolvedPlace | undefined)[],
): StoredEvent | undefined {
  const details = withResolvedPlaces(next.details, places);
  const unchanged =
    next.previousStatus === current.previousStatus &&
    deepEqual({ ...details, updatedAt: current.details.updatedAt }, current.details);
  return unchanged ? undefined : { ...next, details };
}

/** What the store writes for a change: the event, its change record, and its document, each made once. */
function writeOf(
  deps: AppDeps,
  actor: Actor,
  before: EventDetails | undefined,
  event: StoredEvent,
  data?: StatusChangeData,
): EventWrite {
  return {
    event,
    change: describeChange(deps, actor, before, event.details, data),
    document: eventDocument(event.details),
  };
}

/**
 * Changes the event `id` names, as `change` says with `input`. Checks come in D5's order: the event
 * in scope (404), a cancelled event (409, by the change), the precondition (412), the input's
 * problems (400), orphaned sessions (409); a refused change writes nothing. The precondition is
 * judged inside the store's write, so two requests holding the same ETag cannot both win.
 */
export async function changeEvent<Input, Prepared, R extends Requester>(
  deps: AppDeps,
  requester: R,
  id: string,
  change: EventChange<Input, Prepared, R>,
  input: Input,
  precondition?: Precondition,
): Promise<ChangedEvent> {
  const eventId = assertEventId(id);
  const now = nowText(deps);
  // An API key's scope is its organization, which the write itself is limited to: no read before it.
  const organizationId =
    requester.scope === 'organization' || requester.scope === 'venue' || requester.scope === 'system'
      ? requester.organizationId
      : await organizationInScope(deps, requester as PersonRequester | OperatorRequester, eventId, id);
  const resolving = placesOf(deps, change.sentLocations?.(input));
  const places = resolving && (await resolving);
  const prepared = change.prepare && (await change.prepare(deps, organizationId, eventId, input));
  const audience = change.tellsPeople && (await readAudience(deps, organizationId, eventId, requester.actor));
  /** The outcome with the mails that tell people of it (D24), when the change tells them. */
  const told = (outcome: ChangeOutcome): ChangeOutcome => {
    if (!audience) return outcome;
    const { event, data: status, steps, proposals, asked } = outcome;
    const mails = peopleMails({ event, status, steps, proposals, ...(asked ? { asked } : {}) }, audience);
    return mails.length === 0 ? outcome : { ...outcome, mails: [...(outcome.mails ?? []), ...mails] };
  };
  const context: ChangeContext<Prepared, R> = {
    now,
    newId: () => deps.ids.uuid(),
    newToken: () => deps.ids.token(VENUE_TOKEN_LENGTH),
    requester,
    prepared: prepared as Prepared,
  };
  let result: ChangedEvent | undefined;
  const unchanged = (current: StoredEvent, stored: EventDocument) => {
    result = { event: current, document: { text: stored.text, etag: storedEtag(stored) } };
    return undefined;
  };
  const refusedByPrecondition = (current: StoredEvent, stored: EventDocument, sourcing?: EventSourcing) =>
    // A cancelled event is refused by the change first (409 before 412).
    precondition !== undefined &&
    current.details.status !== 'cancelled' &&
    !preconditionHolds(precondition, stored, sourcing);
  // A sourcing change sends no locations: it changes the event's status at most, and its requests.
  const written = change.sourcing
    ? await deps.store.events.updateSourcing(organizationId, eventId, (current, stored, sourcing) => {
        if (refusedByPrecondition(current, stored, sourcing)) throw new PreconditionFailedError();
        const applied = change.apply(current, input, { ...context, sourcing });
        if (!applied) return unchanged(current, stored);
        const outcome = told(applied);
        const write = sourcingWriteOf(deps, requester.actor, organizationId, current, outcome, now);
        if (!write) return unchanged(current, stored);
        result = {
          event: outcome.event,
          document: write.event?.document ?? { text: stored.text, etag: storedEtag(stored) },
          outcome,
        };
        return write;
      })
    : await deps.store.events.update(organizationId, eventId, (current, stored) => {
        if (refusedByPrecondition(current, stored)) throw new PreconditionFailedError();
        const applied = change.apply(current, input, context);
        const event = applied && (places ? withPlaces(current, applied.event, places) : applied.event);
        if (!applied || !event) return unchanged(current, stored);
        const outcome = told({ ...applied, event });
        const write = writeOf(deps, requester.actor, current.details, event, outcome.data);
        if (outcome.mails && outcome.mails.length > 0) {
          write.mails = outcome.mails.map((mail) => prepareMail(deps, organizationId, mail));
        }
        result = { ...write, outcome };
        return write;
      });
  if (!written || !result) throw notFound(id);
  return result;
}

/**
 * What the store writes for a sourcing change: the event and its record when the event itself changed,
 * then one record per request step that records one (D21: `changedFields` empty, the step's data),
 * the requests as they are after their steps, the proposals and the mails. Undefined when the change
 * made nothing to write.
 */
function sourcingWriteOf(
  deps: AppDeps,
  actor: Actor,
  organizationId: string,
  current: StoredEvent,
  outcome: ChangeOutcome,
  now: string,
): SourcingWrite | undefined {
  const steps = outcome.steps ?? [];
  const eventChanged = outcome.event !== current;
  const proposals = outcome.proposals ?? [];
  const mails = outcome.mails ?? [];
  if (
    !eventChanged &&
    steps.length === 0 &&
    proposals.length === 0 &&
    mails.length === 0 &&
    !outcome.version &&
    (outcome.questions ?? []).length === 0 &&
    (outcome.records ?? []).length === 0
  ) {
    return undefined;
  }
  const recorded = [
    ...steps.flatMap((step) => (step.change ? [step.change] : [])),
    ...(outcome.records ?? []),
  ];
  return {
    ...(eventChanged ? { event: writeOf(deps, actor, current.details, outcome.event, outcome.data) } : {}),
    changes: recorded.map((step) => ({
      change: { id: deps.ids.uuid(), type: step.type, actor, changedFields: [], diff: [], data: step.data },
      occurredAt: now,
    })),
    requests: {
      saved: steps.flatMap((step) =>
        step.after ? [{ request: step.after, tokenHash: outcome.tokenHashes?.get(step.after.id) }] : [],
      ),
      removed: steps.flatMap((step) => (step.after === null && step.before ? [step.before.id] : [])),
    },
    proposals: proposals.map((proposal) => ({ eventId: current.details.id, proposal })),
    mails: mails.map((mail) => prepareMail(deps, organizationId, mail)),
    ...(outcome.version ? { version: outcome.version } : {}),
    ...(outcome.openedOn === undefined ? {} : { openedOn: outcome.openedOn }),
    ...(sendsRequests(steps) && !outcome.version
      ? { firstVersion: firstVersion(actor, outcome.event.details, now) }
      : {}),
    ...(outcome.links ? { links: outcome.links.map((link) => ({ ...link, createdAt: now })) } : {}),
    ...(outcome.questions ? { questions: outcome.questions } : {}),
  };
}

/** Whether some step sends a request to its venue (D21): the first send takes version 1 (D26). */
const sendsRequests = (steps: readonly RequestStep[]): boolean =>
  steps.some((step) => step.after?.status === 'sent' && step.before?.status !== 'sent');

/** Version 1 of the request (D26): what venues read at the first send; the store keeps it only once. */
function firstVersion(actor: Actor, details: EventDetails, now: string): StoredRequestVersion {
  return {
    version: 1,
    sentAt: now,
    sentBy: actor,
    message: null,
    changes: [],
    snapshot: venueEventView(details),
  };
}

/**
 * Creates an event (D9) from a create body: the creator's organization owns it, the creator and the
 * creator's approvers are granted it, and its `event.created` record is written with it. With a
 * claim, the Idempotency-Key is recorded in the same transaction (idempotent-create.ts).
 */
export async function createEventBy(
  deps: AppDeps,
  creator: Creator,
  body: unknown,
  idempotency?: IdempotencyClaim,
): Promise<{ id: string; grantedTo: number }> {
  const now = nowText(deps);
  const built = buildNewEvent(body, { id: deps.ids.uuid(), now, newId: () => deps.ids.uuid() });
  // Not awaited here: while the write waits for its group's commit, nothing holds the body.
  return insertNewEvent(deps, creator, built, idempotency);
}

/** Writes a new event built from its create body, once its places are resolved. */
async function insertNewEvent(
  deps: AppDeps,
  creator: Creator,
  built: EventDetails,
  idempotency: IdempotencyClaim | undefined,
): Promise<{ id: string; grantedTo: number }> {
  const resolving = placesOf(deps, built.formattedLocations);
  // The new event's details are this write's alone: its locations are set in place.
  if (resolving) built.formattedLocations = resolvedLocations(built.formattedLocations, await resolving);
  const details = built;
  const event: StoredEvent = {
    organizationId: creator.organizationId,
    createdBy: creator.actor.userId,
    previousStatus: null,
    details,
  };
  // Only the id waits for the commit: the event's objects may go once the store has made its rows.
  const { id } = details;
  const inserted = deps.store.events.insert(writeOf(deps, creator.actor, undefined, event), idempotency);
  return inserted.then(({ grantedTo }) => ({ id, grantedTo }));
}
