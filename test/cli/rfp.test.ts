/**
 * The operator's venue sourcing commands (D12 conventions): `event status --to wait_for_proposals`
 * sends the shortlist, `rfp send-changes` sends a version of the request, `rfp award` and `rfp decline`
 * decide, each printing one JSON object.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/adapters/open-store.js';
import { randomIds, systemClock } from '../../src/adapters/system.js';
import { changeEvent, OPERATOR } from '../../src/app/change-event.js';
import type { AppDeps } from '../../src/app/deps.js';
import { UPDATE_DETAILS } from '../../src/app/event-changes.js';
import { apiKeyRequester, createEvent } from '../../src/app/events.js';
import { submitVenueProposal } from '../../src/app/venue-portal.js';
import { addVenueRequest, listVenueRequests } from '../../src/app/venue-requests.js';
import { parseDatabaseUrl } from '../../src/config.js';
import type { Store } from '../../src/ports/store.js';
import { runCli, runFailing, runJson, SPAWN_TIMEOUT_MS, temporaryDirectory } from './run-cli.js';

const directory = temporaryDirectory();
const database = join(directory.path, 'rfp.db');
const env = { DATABASE_URL: database, PUBLIC_BASE_URL: 'https://events.example.com' };

describe('eventplan rfp and the shortlist', { timeout: SPAWN_TIMEOUT_MS }, () => {
  let store: Store;
  let deps: AppDeps;
  let demo: Awaited<ReturnType<typeof runJson>>;
  let eventId: string;
  let requestIds: string[];

  beforeAll(async () => {
    demo = await runJson(['demo'], env);
    store = await openStore(parseDatabaseUrl(database));
    deps = { store, clock: systemClock, ids: randomIds };
    const planner = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
    eventId = (await createEvent(deps, planner, { name: 'Board offsite' })).id;
    requestIds = [];
    for (const venueId of demo.venueIds as string[]) {
      requestIds.push((await addVenueRequest(deps, apiKeyRequester(planner), eventId, { venueId })).id);
    }
  });
  afterAll(async () => {
    await store?.close();
    directory.remove();
  });

  it('event status --to wait_for_proposals sends every shortlisted request, its link under PUBLIC_BASE_URL', async () => {
    expect(await runJson(['event', 'status', '--event', eventId, '--to', 'wait_for_proposals'], env)).toEqual(
      {
        id: eventId,
        status: 'wait_for_proposals',
      },
    );
    const { mails } = await runJson(['mail', 'list', '--to', 'events@harbourside.example'], env);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Request for proposal: Board offsite (Demo organization)');
    expect(mails[0].text).toMatch(/https:\/\/events\.example\.com\/rfp\/[0-9A-Za-z]{32}/);
  });

  it('rfp decline needs a known reason, then prints { id, eventId, status, eventStatus }', async () => {
    const tokens: string[] = [];
    for (const address of ['events@harbourside.example', 'sales@alfama-palace.example']) {
      const [mail] = await store.mail.list({ to: address, limit: 1 });
      tokens.push(/\/rfp\/(\w+)/.exec(mail!.text!)![1]!);
    }
    for (const token of tokens)
      await submitVenueProposal(deps, token, { validUntil: '2090-01-01', meetingRoomRental: 900 });
    const refused = await runFailing(
      ['rfp', 'decline', '--request', requestIds[1]!, '--reason', 'too_cheap'],
      env,
    );
    expect(refused.stderr).toMatch(/reason/);
    expect(
      await runJson(
        ['rfp', 'decline', '--request', requestIds[1]!, '--reason', 'rate_too_high', '--comment', 'Over'],
        env,
      ),
    ).toEqual({ id: requestIds[1], eventId, status: 'declined', eventStatus: 'proposals_received' });
  });

  it('rfp send-changes sends the pending changes with a message, and refuses when there is nothing to send', async () => {
    const nothing = await runFailing(['rfp', 'send-changes', '--event', eventId], env);
    expect(nothing.stderr).toMatch(/no changes to send/);
    await changeEvent(deps, OPERATOR, eventId, UPDATE_DETAILS, { numPeople: 40 });
    const sent = await runJson(['rfp', 'send-changes', '--event', eventId, '--message', 'Forty now'], env);
    expect(sent).toMatchObject({
      version: 2,
      sentBy: { type: 'operator' },
      message: 'Forty now',
      changes: [{ field: 'numPeople', label: 'Attendees', before: 0, after: 40 }],
    });
    const { mails } = await runJson(['mail', 'list', '--to', 'events@harbourside.example'], env);
    const updated = mails.find(
      (mail: { subject: string }) => mail.subject === 'Updated request: Board offsite',
    );
    expect(updated.text).toContain('Attendees: 0 → 40');
    expect(updated.text).toContain('Forty now');
  });

  it('rfp move-reply-date moves a request’s reply date, tells its venue, and refuses a date in the past', async () => {
    const past = await runFailing(
      ['rfp', 'move-reply-date', '--request', requestIds[0]!, '--date', '2020-01-01'],
      env,
    );
    expect(past.stderr).toMatch(/responseDueDate/);
    expect(
      await runJson(['rfp', 'move-reply-date', '--request', requestIds[0]!, '--date', '2089-12-01'], env),
    ).toEqual({ id: requestIds[0], eventId, status: 'proposed', responseDueDate: '2089-12-01' });
    const { mails } = await runJson(['mail', 'list'], env);
    expect(mails.map((mail: { subject: string }) => mail.subject)).toContain(
      'New reply date 1 Dec 2089: Board offsite (Demo organization)',
    );
  });

  it('rfp award books the event, closes the others, and is refused the second time', async () => {
    expect(await runJson(['rfp', 'award', '--request', requestIds[0]!, '--comment', 'Signed'], env)).toEqual({
      id: requestIds[0],
      eventId,
      status: 'awarded',
      eventStatus: 'booked',
    });
    const { data } = await listVenueRequests(deps, { scope: 'any', actor: { type: 'operator' } }, eventId);
    expect(Object.fromEntries(data.map((request) => [request.id, request.status]))).toEqual({
      [requestIds[0]!]: 'awarded',
      [requestIds[1]!]: 'declined',
      [requestIds[2]!]: 'no_response',
    });
    const again = await runFailing(['rfp', 'award', '--request', requestIds[0]!], env);
    expect(again.stderr).toMatch(/booked/);
    const readable = await runCli(['rfp', 'award', '--request', 'not-an-id'], env);
    expect(readable.code).not.toBe(0);
    expect(readable.stderr).toMatch(/request/);
  });
});
