/**
 * `eventplan copy-data` moves the embedded database into PostgreSQL with nothing lost: every record,
 * key hashes (old keys keep working), grants, statuses and the status before cancellation, counts,
 * the Idempotency-Key records of creates (a retry after the move replays, not creates again), and
 * the dashboard's passwords, invites and sessions (people stay signed in across the move), the mails
 * each person switched off, the change
 * log with each organization's sequence counter, webhook endpoints (rotated secrets, cursor, health)
 * with their deliveries (the target's dispatcher carries on), mail waiting in the outbox, and the
 * service's own secrets.
 */

import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemoryAttemptCounter } from '../../src/adapters/memory/memory-attempt-counter.js';
import { createMemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { issueKey, revokeKey } from '../../src/app/api-keys.js';
import { tallyStore } from '../../src/app/copy-data.js';
import type { AppDeps, Principal } from '../../src/app/deps.js';
import { apiKeyRequester, changeEventStatus, createEvent, updateEvent } from '../../src/app/events.js';
import { prepareMail, queueMails } from '../../src/app/mail.js';
import {
  createDemo,
  createUser,
  type Demo,
  type DemoLinks,
  deactivateUser,
} from '../../src/app/organizations.js';
import {
  acceptInvite,
  authenticateSession,
  type PeopleDeps,
  setPassword,
  signIn,
} from '../../src/app/people.js';
import { openVenueRequest, submitVenueProposal } from '../../src/app/venue-portal.js';
import { addVenueRequest, moveReplyDate } from '../../src/app/venue-requests.js';
import { createDispatcher } from '../../src/app/webhook-dispatcher.js';
import { createEndpoint, rotateSecret, type WebhookDeps } from '../../src/app/webhook-endpoints.js';
import { sign } from '../../src/app/webhook-signature.js';
import type { OutboxMail } from '../../src/domain/mail.js';
import { composeMail } from '../../src/domain/mail-content.js';
import type { WebhookDelivery, WebhookEndpoint } from '../../src/domain/webhooks.js';
import { buildApp } from '../../src/http/app.js';
import type { Store } from '../../src/ports/store.js';
import type { WebhookRequest, WebhookTransport } from '../../src/ports/webhook-transport.js';
import { href } from '../../src/web/href.js';
import { runCli, runFailing, runJson, SPAWN_TIMEOUT_MS, temporaryDirectory } from '../cli/run-cli.js';
import { createTestDatabase, type Scratch } from '../helpers/postgres.js';
import { describeWithService } from '../helpers/services.js';

/** A transport that answers every attempt with `statusCode` and keeps the requests. */
function answering(statusCode: number) {
  const requests: WebhookRequest[] = [];
  const transport: WebhookTransport = {
    urlProblem: () => undefined,
    async send(request) {
      requests.push(request);
      return { kind: 'response', statusCode, body: statusCode === 204 ? '' : 'Service unavailable' };
    },
    async close() {},
  };
  return { requests, transport };
}

/** One dispatcher round over `store`, waited for to the last recorded attempt. */
async function dispatchOnce(store: Store, transport: WebhookTransport, retrySchedule: number[]) {
  const dispatcher = createDispatcher(
    { store, clock: systemClock, ids: randomIds },
    { transport, retrySchedule, timeoutMs: 1000, random: () => 0.5 },
  );
  const started = await dispatcher.round();
  await dispatcher.idle();
  return started;
}

async function recordsOf(store: Store) {
  const byKind: Record<string, unknown[]> = {};
  for await (const batch of store.transfer.exportRecords()) {
    byKind[batch.kind] = [...(byKind[batch.kind] ?? []), ...batch.records];
  }
  return byKind;
}

describeWithService('postgres', 'eventplan copy-data from SQLite to PostgreSQL', () => {
  const directory = temporaryDirectory();
  const sqlitePath = join(directory.path, 'eventplan.db');
  let target: Scratch;
  let source: Store;
  let demo: Demo & DemoLinks;
  let revokedKey: string;
  let deactivatedKey: string;
  const eventIds: string[] = [];
  const idempotencyKey = 'retry-after-move-0001';
  const idempotentBody = { name: 'Created before the move', formattedLocations: [{ city: 'Porto' }] };
  let idempotentCreate: { id: string; grantedTo: number; location: string };
  let sessionToken: string;
  let formTokenKey: string;
  let endpoint: WebhookEndpoint;
  let waitingMail: OutboxMail;
  let endpointSecret: string;
  let sourceDeliveries: WebhookDelivery[];
  let venueToken: string;
  const peopleOf = (store: Store): PeopleDeps => ({
    store,
    clock: systemClock,
    ids: randomIds,
    attempts: createMemoryAttemptCounter(),
    sessionPolicy: { idleMinutes: 720, maxDays: 7 },
  });

  beforeAll(async () => {
    target = await createTestDatabase();
    source = openSqliteStore({ path: sqlitePath });
    await source.migrate();
    const deps: AppDeps = { store: source, clock: systemClock, ids: randomIds };
    demo = await createDemo(deps, { invitePage: href.invite });
    const other = await createDemo(deps, { invitePage: href.invite });
    const principal: Principal = {
      organizationId: demo.organizationId,
      userId: demo.userId,
      keyId: demo.keyId,
    };
    for (let i = 0; i < 12; i++) {
      const { id } = await createEvent(deps, principal, {
        name: `Summit ${i}`,
        formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
        eventDates: [{ startDate: '2026-09-01', endDate: '2026-09-03' }],
        agenda: [{ title: 'Opening', dates: ['2026-09-01'], startTime: '09:00', endTime: '10:00' }],
        budgetBreakdown: { venue: 1200.5 },
      });
      eventIds.push(id);
    }
    await updateEvent(deps, principal, eventIds[0]!, {
      notesForVenue: 'Step-free access — please',
      agendaOperations: [
        {
          op: 'add',
          session: { title: 'Close', dates: ['2026-09-03'], startTime: '16:00', endTime: '17:00' },
        },
      ],
    });
    // A request for proposals sent to a venue, which answered through its link (before the endpoint
    // exists, so nothing of it is delivered): the link must keep working from the new database.
    const request = await addVenueRequest(deps, apiKeyRequester(principal), eventIds[3]!, {
      venueId: demo.venueIds[0]!,
    });
    await changeEventStatus(deps, eventIds[3]!, 'wait_for_proposals');
    const [requestMail] = await source.mail.list({ to: 'events@harbourside.example', limit: 1 });
    venueToken = /\/rfp\/(\w+)/.exec(requestMail!.text!)![1]!;
    await openVenueRequest(deps, venueToken);
    await submitVenueProposal(deps, venueToken, { validUntil: '2090-01-01', meetingRoomRental: 900 });
    // Its reply date moved: the venue's mail of the move carries a link of its own (D28).
    await moveReplyDate(deps, apiKeyRequester(principal), eventIds[3]!, request.id, {
      responseDueDate: '2089-12-20',
    });
    // A webhook endpoint for status changes, whose secret is rotated: the first delivery fails for good
    // (no retry left), the next two fail once and wait an hour for their retry.
    const webhookDeps: WebhookDeps = { ...deps, urlProblem: () => undefined };
    const created = await createEndpoint(webhookDeps, principal, {
      url: 'https://hooks.example.com/eventplan',
      enabledEvents: ['event.status_changed'],
    });
    endpointSecret = (await rotateSecret(webhookDeps, principal, created.id)).secret;
    await changeEventStatus(deps, eventIds[1]!, 'booked');
    expect(await dispatchOnce(source, answering(500).transport, [])).toBe(1);
    await changeEventStatus(deps, eventIds[1]!, 'cancelled');
    await changeEventStatus(deps, eventIds[2]!, 'wait_for_proposals');
    expect(await dispatchOnce(source, answering(503).transport, [3_600_000])).toBe(2);
    endpoint = (await source.webhooks.findEndpoint(demo.organizationId, created.id))!;
    sourceDeliveries = await source.webhooks.listDeliveries(demo.organizationId, endpoint.id, 10);
    expect(endpoint.failingSince).not.toBeNull();
    expect(endpoint.secrets.previous).not.toBeNull();
    expect(
      sourceDeliveries.map((delivery) => [delivery.status, delivery.attempts, delivery.lastStatusCode]),
    ).toEqual([
      ['pending', 1, 503],
      ['pending', 1, 503],
      ['failed', 1, 500],
    ]);
    // An event of a creator in no group: no grants.
    const loner = await createUser(deps, {
      organizationId: other.organizationId,
      email: 'loner@example.com',
    });
    const lonerKey = await issueKey(deps, loner.id);
    await createEvent(
      deps,
      { organizationId: other.organizationId, userId: loner.id, keyId: lonerKey.keyId },
      {
        name: 'Unseen',
      },
    );
    const revoked = await issueKey(deps, demo.userId);
    await revokeKey(deps, revoked.keyId);
    revokedKey = revoked.key;
    deactivatedKey = other.key;
    await deactivateUser(deps, other.userId);
    // The dashboard's people: a password set by an operator, one chosen through an invite, a session.
    await setPassword(deps, demo.userId, 'planner moves to postgres');
    await acceptInvite(deps, demo.approverInviteUrl.split('/').pop()!, 'approver moves too');
    sessionToken = (
      await signIn(peopleOf(source), {
        email: 'planner@example.com',
        password: 'planner moves to postgres',
        clientAddress: '192.0.2.1',
        userAgent: 'copy-data test',
      })
    ).token;
    // The approver no longer wants mails about proposals (D24): the switch moves too.
    await source.identity.setSwitchedOffNotifications(demo.organizationId, demo.approverId, [
      'proposal_received',
    ]);
    formTokenKey = await source.secrets.ensure('dashboard-form-token-key', randomIds.token(64));
    // A mail still waiting in the outbox: it must be sent from the new database.
    waitingMail = prepareMail(
      deps,
      demo.organizationId,
      composeMail({
        to: { address: 'venue@example.com', name: null },
        content: { subject: 'Waiting', greeting: 'Hello,', paragraphs: ['Sent after the move.'] },
      }),
    );
    await queueMails(deps, [waitingMail]);
    // A create with an Idempotency-Key, answered by the embedded service just before the move.
    const app = await buildApp({ deps, rateLimiter: createMemoryRateLimiter({ limit: 1000 }) });
    try {
      const created = await app.inject({
        method: 'POST',
        url: '/v1/events',
        headers: { 'x-api-key': demo.key, 'idempotency-key': idempotencyKey },
        payload: idempotentBody,
      });
      expect(created.statusCode).toBe(201);
      expect(created.headers['idempotent-replayed']).toBeUndefined();
      idempotentCreate = { ...created.json(), location: created.headers.location as string };
    } finally {
      await app.close();
    }
  });

  afterAll(async () => {
    await source?.close();
    await target?.drop();
    directory.remove();
  });

  it(
    'copies every record, reports counts and a digest that match both databases, and old keys keep working',
    {
      timeout: SPAWN_TIMEOUT_MS,
    },
    async () => {
      const report = await runJson(['copy-data', '--from', sqlitePath, '--to', target.url]);
      expect(report.copied).toEqual({
        organizations: 2,
        users: 5,
        groups: 2,
        memberships: 4,
        apiKeys: 4,
        events: 14,
        grants: 26,
        idempotencyKeys: 1,
        passwords: 2,
        invites: 4,
        sessions: 1,
        notificationOptOuts: 1,
        // 14 creates, one update and four status changes by an operator (one sending a request), the
        // venue's proposal with the move to proposals_received it made, and the reply date moved.
        changes: 23,
        // The demo venues of both organizations; one request, answered with one proposal.
        venues: 6,
        venueRequests: 1,
        proposals: 1,
        // Version 1 of that request, taken when it was sent; the link of the move's mail; no question.
        requestVersions: 1,
        venueRequestLinks: 1,
        venueQuestions: 0,
        // The endpoint, and its three status-change deliveries.
        webhookEndpoints: 1,
        webhookDeliveries: 3,
        // The mail waiting in the outbox, the venue's request, the planner and the approver told of the
        // venue's proposal (D24), and the move of the reply date.
        mails: 5,
        // The dashboard's form-token key of the embedded service.
        serverSecrets: 1,
      });

      const copy = openPostgresStore({ url: target.url });
      try {
        const sourceTally = await tallyStore(source);
        const targetTally = await tallyStore(copy);
        expect(targetTally.counts).toEqual(report.copied);
        expect(sourceTally.digest()).toBe(report.digest);
        expect(targetTally.digest()).toBe(report.digest);
        expect(await recordsOf(copy)).toEqual(await recordsOf(source));
        expect(await copy.identity.switchedOffNotifications(demo.organizationId, demo.approverId)).toEqual([
          'proposal_received',
        ]);

        const app = await buildApp({
          deps: { store: copy, clock: systemClock, ids: randomIds },
          rateLimiter: createMemoryRateLimiter({ limit: 1000 }),
        });
        try {
          const call = (key: string, url: string) =>
            app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
          const list = await call(demo.key, '/v1/events?limit=100');
          expect(list.statusCode).toBe(200);
          expect(list.json().total).toBe(13);
          // The client retries its create against the new store: the first 201 again, no second event.
          const retry = (payload: object) =>
            app.inject({
              method: 'POST',
              url: '/v1/events',
              headers: { 'x-api-key': demo.key, 'idempotency-key': idempotencyKey },
              payload,
            });
          const replayed = await retry(idempotentBody);
          expect(replayed.statusCode).toBe(201);
          expect(replayed.headers['idempotent-replayed']).toBe('true');
          expect(replayed.headers.location).toBe(idempotentCreate.location);
          expect(replayed.json()).toEqual({ id: idempotentCreate.id, grantedTo: idempotentCreate.grantedTo });
          expect((await call(demo.key, '/v1/events?limit=100')).json().total).toBe(13);
          expect((await tallyStore(copy)).counts.events).toBe(14);
          // The request digest came along too: the key with another body is still refused.
          expect((await retry({ ...idempotentBody, name: 'Something else' })).statusCode).toBe(422);
          const cancelled = await call(demo.key, `/v1/events/${eventIds[1]}`);
          const stored = await source.events.findDocument(demo.organizationId, eventIds[1]!);
          expect(cancelled.body).toBe(stored?.body.toString());
          expect(cancelled.headers.etag).toBe(stored?.etag);
          expect(cancelled.json().status).toBe('cancelled');
          expect((await call(revokedKey, '/v1/events')).statusCode).toBe(401);
          expect((await call(deactivatedKey, '/v1/events')).statusCode).toBe(401);
          // The status before cancellation came along: reopening restores it.
          await changeEventStatus(
            { store: copy, clock: systemClock, ids: randomIds },
            eventIds[1]!,
            'reopen',
          );
          expect((await call(demo.key, `/v1/events/${eventIds[1]}`)).json().status).toBe('booked');
          // The change log came along with each organization's counter: history reads the same, and
          // the next change takes the next sequence rather than reusing one.
          const history = await source.events.changes(demo.organizationId, eventIds[1]!, { limit: 10 });
          expect(history.map((change) => change.type)).toEqual([
            'event.status_changed',
            'event.status_changed',
            'event.created',
          ]);
          const moved = await copy.events.changes(demo.organizationId, eventIds[1]!, { limit: 10 });
          expect(moved.slice(1)).toEqual(history);
          const lastSequence = Math.max(
            ...(await recordsOf(source)).changes!.map((change) => (change as { sequence: number }).sequence),
          );
          expect(moved[0]).toMatchObject({
            revision: 4,
            sequence: lastSequence + 1,
            actor: { type: 'operator' },
          });
          // Webhooks: the endpoint (both secrets, cursor, since when it fails) and every delivery came
          // along, and the target's dispatcher goes on from the cursor: the reopening is delivered,
          // signed with the rotated secret, and nothing delivered before the move is enqueued again.
          const movedEndpoint = await copy.webhooks.findEndpoint(demo.organizationId, endpoint.id);
          expect(movedEndpoint).toEqual(endpoint);
          expect(movedEndpoint!.cursor).toBe(endpoint.cursor);
          expect(await copy.webhooks.listDeliveries(demo.organizationId, endpoint.id, 10)).toEqual(
            sourceDeliveries,
          );
          const receiver = answering(204);
          expect(await dispatchOnce(copy, receiver.transport, [3_600_000])).toBe(1);
          expect(receiver.requests).toHaveLength(1);
          const [request] = receiver.requests;
          expect(request!.headers['webhook-id']).toBe(moved[0]!.id);
          expect(JSON.parse(request!.body)).toMatchObject({
            type: 'event.status_changed',
            data: { eventId: eventIds[1], sequence: lastSequence + 1 },
          });
          const timestamp = Number(request!.headers['webhook-timestamp']);
          expect(request!.headers['webhook-signature']!.split(' ')).toContain(
            sign(endpointSecret, moved[0]!.id, timestamp, request!.body),
          );
          const after = await copy.webhooks.findEndpoint(demo.organizationId, endpoint.id);
          expect(after).toMatchObject({ cursor: lastSequence + 1, failingSince: null });
          expect(
            (await copy.webhooks.listDeliveries(demo.organizationId, endpoint.id, 10)).map(
              (delivery) => delivery.status,
            ),
          ).toEqual(['succeeded', 'pending', 'pending', 'failed']);
          // The venue's link works from the new database, its request and proposal as they were.
          const page = await openVenueRequest(
            { store: copy, clock: systemClock, ids: randomIds },
            venueToken,
          );
          expect(page).toMatchObject({
            open: true,
            request: { status: 'proposed' },
            proposal: { revision: 1, meetingRoomRental: 900 },
          });
          // The waiting mail is in the new outbox, due, with its Message-ID.
          expect(await copy.mail.find(demo.organizationId, waitingMail.id)).toEqual(waitingMail);
          // The form-token key is the one the embedded service used: forms already open still post.
          expect(await copy.secrets.ensure('dashboard-form-token-key', 'a new key')).toBe(formTokenKey);
          // The planner's session and both passwords came along.
          const people = peopleOf(copy);
          expect((await authenticateSession(people, sessionToken))?.userId).toBe(demo.userId);
          const signedIn = await signIn(people, {
            email: 'approver@example.com',
            password: 'approver moves too',
            clientAddress: '192.0.2.1',
            userAgent: null,
          });
          expect(signedIn.person.userId).toBe(demo.approverId);
        } finally {
          await app.close();
        }
      } finally {
        await copy.close();
      }
    },
  );

  it(
    'refuses a target that already holds data, and changes nothing',
    {
      timeout: SPAWN_TIMEOUT_MS,
    },
    async () => {
      const failed = await runFailing(['copy-data', '--from', sqlitePath, '--to', target.url]);
      expect(failed.stderr).toMatch(/already holds data/);
      const copy = openPostgresStore({ url: target.url });
      try {
        expect((await tallyStore(copy)).counts.organizations).toBe(2);
      } finally {
        await copy.close();
      }
    },
  );

  it(
    'refuses a source file that does not exist instead of copying an empty database',
    {
      timeout: SPAWN_TIMEOUT_MS,
    },
    async () => {
      const result = await runCli([
        'copy-data',
        '--from',
        join(directory.path, 'missing.db'),
        '--to',
        target.url,
      ]);
      expect(result.code).toBe(78);
      expect(result.stderr).toMatch(/--from/);
    },
  );
});
