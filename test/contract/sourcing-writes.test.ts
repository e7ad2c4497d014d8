/**
 * Requests for proposals and proposals on every backend (D21–D23): written only with their event, in
 * one transaction with the event's row, the change records and the mails, and read back by event, by
 * id and by the hash of the venue's link token.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeChange } from '../../src/app/change-log.js';
import { eventDocument, storedEtag } from '../../src/app/etag.js';
import type { NewChange } from '../../src/domain/changes.js';
import { ConflictError, NothingToSendError } from '../../src/domain/errors.js';
import { newOutboxMail } from '../../src/domain/mail.js';
import { composeMail } from '../../src/domain/mail-content.js';
import type { Proposal } from '../../src/domain/proposal.js';
import { venueEventView } from '../../src/domain/request-versions.js';
import type { StoredEvent } from '../../src/domain/types.js';
import type { VenueRequest } from '../../src/domain/venue-request.js';
import type { SourcingWrite } from '../../src/ports/event-repository.js';
import { BACKENDS, describeStore } from './backends.js';
import {
  insertEvent,
  newEvent,
  newOrganization,
  newRequest,
  newUser,
  newVenue,
  nextTime,
} from './fixtures.js';

const ids = { ids: { uuid: randomUUID, token: () => randomUUID() } };

/** A write of request rows only, with nothing else. */
function saving(requests: VenueRequest[], extra: Partial<SourcingWrite> = {}): SourcingWrite {
  return {
    changes: [],
    requests: { saved: requests.map((request) => ({ request })), removed: [] },
    proposals: [],
    mails: [],
    ...extra,
  };
}

/** A request step's change record as the use cases write it (D21). */
function stepRecord(type: NewChange['type'], request: VenueRequest, proposalRevision?: number) {
  const data = {
    requestId: request.id,
    venueId: request.venue.id,
    ...(proposalRevision === undefined ? {} : { proposalRevision }),
  };
  return {
    change: {
      id: randomUUID(),
      type,
      actor: { type: 'operator' },
      changedFields: [],
      diff: [],
      data,
    } as NewChange,
    occurredAt: nextTime(),
  };
}

function proposalOf(request: VenueRequest, revision: number, rate = 150): Proposal {
  return {
    id: randomUUID(),
    requestId: request.id,
    revision,
    submittedAt: nextTime(),
    submittedBy: 'venue',
    requestVersion: 1,
    late: false,
    validUntil: '2090-01-01',
    currency: 'EUR',
    offeredDates: { startDate: '2026-05-01', endDate: '2026-05-03' },
    holdOption: 'first',
    rooms: { '2026-05-01': { Single: { count: 10, rate } } },
    meetingRoomRental: null,
    foodBeverageMinimum: 2500.5,
    avEstimate: null,
    otherCharges: null,
    roomTaxPercent: 7.5,
    serviceChargePercent: null,
    attritionPercent: 10,
    depositPercent: null,
    commissionPercent: null,
    cutoffDate: null,
    cancellation: [{ daysBefore: 30, percent: 50 }],
    notes: 'Sea view',
  };
}

for (const backend of BACKENDS) {
  describeStore(backend, 'sourcing writes', (store) => {
    let org: string;
    let planner: string;

    beforeAll(async () => {
      org = await newOrganization(store());
      planner = await newUser(store(), org);
    });

    /** An event with `count` venues of the directory. */
    async function eventWithVenues(count: number) {
      const event = newEvent(org, planner);
      await insertEvent(store(), event);
      const venues = Array.from({ length: count }, (_, index) => newVenue({ name: `Venue ${index}` }));
      for (const venue of venues) await store().venues.insert(org, venue);
      return { event, venues };
    }

    const write = (
      event: StoredEvent,
      make: Parameters<ReturnType<typeof store>['events']['updateSourcing']>[2],
    ) => store().events.updateSourcing(org, event.details.id, make);

    describe('request versions (D26)', () => {
      const versionOf = (event: StoredEvent, version: number, message: string | null = null) => ({
        version,
        sentAt: nextTime(),
        sentBy: { type: 'operator' } as const,
        message,
        changes:
          version === 1 ? [] : [{ field: 'numPeople', label: 'Attendees', before: 10, after: 10 + version }],
        snapshot: venueEventView({ ...event.details, numPeople: 10 + version }),
      });

      it('keeps version 1 of the first send only, and the later versions, newest first', async () => {
        const { event } = await eventWithVenues(0);
        const first = versionOf(event, 1);
        await write(event, () => saving([], { firstVersion: first }));
        // A later send that also carries a version 1 leaves the first as it was.
        await write(event, () => saving([], { firstVersion: { ...versionOf(event, 1), message: 'later' } }));
        const second = versionOf(event, 2, 'Twenty more guests <b>');
        await write(event, () => saving([], { version: second }));
        expect(await store().venueRequests.versions(org, event.details.id)).toEqual([second, first]);
        const other = await newOrganization(store());
        expect(await store().venueRequests.versions(other, event.details.id)).toEqual([]);
      });

      it('refuses a version whose predecessor is not the latest, writing nothing of it', async () => {
        const { event, venues } = await eventWithVenues(1);
        await write(event, () => saving([], { firstVersion: versionOf(event, 1) }));
        await write(event, () => saving([], { version: versionOf(event, 2) }));
        const request = newRequest(event, venues[0]!);
        await expect(
          write(event, () => saving([request], { version: versionOf(event, 2, 'again') })),
        ).rejects.toBeInstanceOf(NothingToSendError);
        await expect(write(event, () => saving([], { version: versionOf(event, 4) }))).rejects.toBeInstanceOf(
          NothingToSendError,
        );
        expect((await store().venueRequests.versions(org, event.details.id)).map((v) => v.version)).toEqual([
          2, 1,
        ]);
        expect(await store().venueRequests.listForEvent(org, event.details.id)).toEqual([]);
      });

      it('finds a request by the hash of a later link as by its first', async () => {
        const { event, venues } = await eventWithVenues(1);
        const request = newRequest(event, venues[0]!);
        await write(event, () => ({
          ...saving([request]),
          requests: { saved: [{ request, tokenHash: 'a'.repeat(64) }], removed: [] },
        }));
        await write(event, () =>
          saving([], {
            version: versionOf(event, 1),
            links: [{ requestId: request.id, tokenHash: 'b'.repeat(64), createdAt: nextTime() }],
          }),
        );
        const address = {
          organizationId: org,
          eventId: event.details.id,
          requestId: request.id,
          venueId: venues[0]!.id,
        };
        expect(await store().venueRequests.findByTokenHash('a'.repeat(64))).toEqual(address);
        expect(await store().venueRequests.findByTokenHash('b'.repeat(64))).toEqual(address);
        expect(await store().venueRequests.findByTokenHash('c'.repeat(64))).toBeUndefined();
      });
    });

    describe('requests', () => {
      it('saves requests with their venue, reads them by event and by id, oldest first', async () => {
        const { event, venues } = await eventWithVenues(2);
        const first = newRequest(event, venues[0]!);
        const second = newRequest(event, venues[1]!, { responseDueDate: '2026-04-20' });
        await write(event, () => saving([first, second]));
        expect(await store().venueRequests.listForEvent(org, event.details.id)).toEqual([
          { request: first, proposal: null },
          { request: second, proposal: null },
        ]);
        expect(await store().venueRequests.find(org, event.details.id, second.id)).toEqual({
          request: second,
          proposal: null,
        });
        expect(await store().venueRequests.locate(second.id)).toEqual({
          organizationId: org,
          eventId: event.details.id,
          requestId: second.id,
          venueId: venues[1]!.id,
        });
      });

      it('shows the venue as the directory has it now', async () => {
        const { event, venues } = await eventWithVenues(1);
        const request = newRequest(event, venues[0]!);
        await write(event, () => saving([request]));
        await store().venues.update(org, venues[0]!.id, (venue) => ({ ...venue, name: 'Renamed Palace' }));
        const [read] = await store().venueRequests.listForEvent(org, event.details.id);
        expect(read?.request.venue.name).toBe('Renamed Palace');
      });

      it('keeps nothing of another organization in reach', async () => {
        const { event, venues } = await eventWithVenues(1);
        const request = newRequest(event, venues[0]!);
        await write(event, () => saving([request]));
        const other = await newOrganization(store());
        expect(await store().venueRequests.listForEvent(other, event.details.id)).toEqual([]);
        expect(await store().venueRequests.find(other, event.details.id, request.id)).toBeUndefined();
        expect(await store().venueRequests.proposals(other, request.id)).toEqual([]);
        expect(
          await store().events.updateSourcing(other, event.details.id, () => saving([request])),
        ).toBeUndefined();
      });

      it('updates a saved request in place, keeping its token hash unless a new one is given', async () => {
        const { event, venues } = await eventWithVenues(1);
        const shortlisted = newRequest(event, venues[0]!);
        await write(event, () => saving([shortlisted]));
        const sentAt = nextTime();
        const sent = {
          ...shortlisted,
          status: 'sent' as const,
          sentAt,
          responseDueDate: '2026-04-01',
          updatedAt: sentAt,
        };
        const tokenHash = randomUUID().replaceAll('-', '');
        await write(event, () => ({
          ...saving([]),
          requests: { saved: [{ request: sent, tokenHash }], removed: [] },
        }));
        expect(await store().venueRequests.findByTokenHash(tokenHash)).toEqual({
          organizationId: org,
          eventId: event.details.id,
          requestId: sent.id,
          venueId: venues[0]!.id,
        });
        const viewed = { ...sent, status: 'viewed' as const, viewedAt: nextTime() };
        await write(event, () => saving([viewed]));
        expect((await store().venueRequests.findByTokenHash(tokenHash))?.requestId).toBe(sent.id);
        expect((await store().venueRequests.find(org, event.details.id, sent.id))?.request).toEqual(viewed);
        const replaced = randomUUID().replaceAll('-', '');
        await write(event, () => ({
          ...saving([]),
          requests: { saved: [{ request: viewed, tokenHash: replaced }], removed: [] },
        }));
        expect(await store().venueRequests.findByTokenHash(tokenHash)).toBeUndefined();
        expect((await store().venueRequests.findByTokenHash(replaced))?.requestId).toBe(sent.id);
      });

      it('keeps turn-downs and decisions as given', async () => {
        const { event, venues } = await eventWithVenues(1);
        const request = newRequest(event, venues[0]!, {
          status: 'declined',
          turnDown: null,
          decision: { reason: 'other', comment: 'Line one\nline "two" <b>' },
        });
        await write(event, () => saving([request]));
        expect(
          (await store().venueRequests.find(org, event.details.id, request.id))?.request.decision,
        ).toEqual(request.decision);
      });

      it('removes a removed request', async () => {
        const { event, venues } = await eventWithVenues(2);
        const kept = newRequest(event, venues[0]!);
        const removed = newRequest(event, venues[1]!);
        await write(event, () => saving([kept, removed]));
        await write(event, () => ({ ...saving([]), requests: { saved: [], removed: [removed.id] } }));
        expect(
          (await store().venueRequests.listForEvent(org, event.details.id)).map((r) => r.request.id),
        ).toEqual([kept.id]);
        expect(await store().venueRequests.locate(removed.id)).toBeUndefined();
      });

      it('refuses a second request to the same venue for the event, writing nothing of it', async () => {
        const { event, venues } = await eventWithVenues(1);
        await write(event, () => saving([newRequest(event, venues[0]!)]));
        const twin = newRequest(event, venues[0]!);
        await expect(write(event, () => saving([twin]))).rejects.toBeInstanceOf(Error);
        expect(await store().venueRequests.locate(twin.id)).toBeUndefined();
      });
    });

    describe('proposals', () => {
      it('keeps every revision, reads them newest first and the latest with its request', async () => {
        const { event, venues } = await eventWithVenues(2);
        const request = newRequest(event, venues[0]!, { status: 'proposed' });
        const unanswered = newRequest(event, venues[1]!, { status: 'sent' });
        const first = proposalOf(request, 1, 150);
        await write(event, () =>
          saving([request, unanswered], { proposals: [{ eventId: event.details.id, proposal: first }] }),
        );
        const second = proposalOf(request, 2, 140);
        await write(event, () =>
          saving([], { proposals: [{ eventId: event.details.id, proposal: second }] }),
        );
        expect(await store().venueRequests.proposals(org, request.id)).toEqual([second, first]);
        expect(await store().venueRequests.listForEvent(org, event.details.id)).toEqual([
          { request, proposal: second },
          { request: unanswered, proposal: null },
        ]);
        expect((await store().venueRequests.find(org, event.details.id, request.id))?.proposal).toEqual(
          second,
        );
      });

      it('refuses a revision number given twice', async () => {
        const { event, venues } = await eventWithVenues(1);
        const request = newRequest(event, venues[0]!, { status: 'proposed' });
        const proposal = proposalOf(request, 1);
        await write(event, () => saving([request], { proposals: [{ eventId: event.details.id, proposal }] }));
        const again = { ...proposalOf(request, 1), id: randomUUID() };
        await expect(
          write(event, () => saving([], { proposals: [{ eventId: event.details.id, proposal: again }] })),
        ).rejects.toBeInstanceOf(Error);
        expect(await store().venueRequests.proposals(org, request.id)).toEqual([proposal]);
      });
    });

    describe('with the event, its change records and its mails', () => {
      it('writes the event and its record first, then one record per step, numbered in order', async () => {
        const { event, venues } = await eventWithVenues(2);
        const requests = venues.map((venue) => newRequest(event, venue));
        await write(event, () => saving(requests));
        const before = await store().events.changes(org, event.details.id, { limit: 10 });
        const movedAt = nextTime();
        const moved: StoredEvent = {
          ...event,
          details: { ...event.details, status: 'wait_for_proposals', updatedAt: movedAt },
        };
        const sent = requests.map((request) => ({ ...request, status: 'sent' as const, sentAt: movedAt }));
        const statusRecord = describeChange(ids, { type: 'operator' }, event.details, moved.details, {
          from: 'draft',
          to: 'wait_for_proposals',
        });
        const steps = sent.map((request) => ({
          ...stepRecord('venue_request.sent', request),
          occurredAt: movedAt,
        }));
        const stored = await write(event, () => ({
          ...saving(sent),
          event: { event: moved, change: statusRecord, document: eventDocument(moved.details) },
          changes: steps,
        }));
        expect(stored).toEqual(moved);
        expect((await store().events.find(org, event.details.id))?.details.status).toBe('wait_for_proposals');
        const after = await store().events.changes(org, event.details.id, { limit: 10 });
        const added = after.slice(0, after.length - before.length).reverse();
        expect(added.map((change) => [change.type, change.revision])).toEqual([
          ['event.status_changed', before[0]!.revision + 1],
          ['venue_request.sent', before[0]!.revision + 2],
          ['venue_request.sent', before[0]!.revision + 3],
        ]);
        expect(added[1]).toMatchObject({
          id: steps[0]!.change.id,
          changedFields: [],
          diff: [],
          occurredAt: movedAt,
          data: { requestId: sent[0]!.id, venueId: venues[0]!.id },
          actor: { type: 'operator' },
        });
        const sequences = added.map((change) => change.sequence);
        expect(sequences).toEqual([sequences[0], sequences[0]! + 1, sequences[0]! + 2]);
        const feed = await store().events.changesAfter(org, { afterSequence: sequences[0]! - 1, limit: 10 });
        expect(feed.map((change) => change.id)).toEqual(added.map((change) => change.id));
        const snapshot = await store().events.revision(org, event.details.id, added[2]!.revision);
        expect(JSON.parse(snapshot!.snapshot)).toEqual(moved.details);
      });

      it('leaves the event row as it is when only requests change, recording when the step was made', async () => {
        const { event, venues } = await eventWithVenues(1);
        const request = newRequest(event, venues[0]!, { status: 'sent' });
        await write(event, () => saving([request]));
        const document = await store().events.findDocument(org, event.details.id);
        const turnedDown = {
          ...request,
          status: 'turned_down' as const,
          turnDown: { reason: 'other' as const, comment: 'Full' },
        };
        const record = {
          ...stepRecord('venue_request.turned_down', turnedDown),
          change: {
            ...stepRecord('venue_request.turned_down', turnedDown).change,
            actor: { type: 'venue' as const, venueId: venues[0]!.id },
          },
        };
        await write(event, () => ({ ...saving([turnedDown]), changes: [record] }));
        const unchanged = await store().events.findDocument(org, event.details.id);
        expect(unchanged?.body.toString()).toBe(document?.body.toString());
        expect(unchanged?.etag).toBe(document?.etag);
        const [latest] = await store().events.changes(org, event.details.id, { limit: 1 });
        expect(latest).toMatchObject({
          type: 'venue_request.turned_down',
          occurredAt: record.occurredAt,
          actor: { type: 'venue', venueId: venues[0]!.id },
          data: { requestId: request.id, venueId: venues[0]!.id },
        });
        const revision = await store().events.revision(org, event.details.id, latest!.revision);
        expect(revision?.snapshot).toBe(document?.body.toString());
      });

      it('stores the mails with the write', async () => {
        const { event, venues } = await eventWithVenues(1);
        const mail = newOutboxMail(
          composeMail({
            to: { address: 'sales@atlantico.example', name: 'Venue' },
            content: { subject: 'Request', greeting: 'Hello,', paragraphs: ['Text.'] },
          }),
          {
            organizationId: org,
            id: randomUUID(),
            now: nextTime(),
            from: { address: 'e@example.com', name: null },
          },
        );
        await write(event, () => saving([newRequest(event, venues[0]!)], { mails: [mail] }));
        expect(await store().mail.find(org, mail.id)).toEqual(mail);
      });

      it('writes nothing at all when the change throws or returns nothing', async () => {
        const { event, venues } = await eventWithVenues(1);
        const request = newRequest(event, venues[0]!);
        const before = await store().events.changes(org, event.details.id, { limit: 10 });
        const refusal = new ConflictError('no');
        const moved: StoredEvent = {
          ...event,
          details: { ...event.details, name: 'Never', updatedAt: nextTime() },
        };
        await expect(
          write(event, () => {
            saving([request], {
              event: {
                event: moved,
                change: describeChange(ids, { type: 'operator' }, event.details, moved.details),
                document: eventDocument(moved.details),
              },
            });
            throw refusal;
          }),
        ).rejects.toBe(refusal);
        expect(await write(event, () => undefined)).toEqual(event);
        expect(await store().venueRequests.listForEvent(org, event.details.id)).toEqual([]);
        expect(await store().events.changes(org, event.details.id, { limit: 10 })).toEqual(before);
        expect((await store().events.find(org, event.details.id))?.details.name).toBe(event.details.name);
      });

      it('rolls back the event and its records when a request cannot be written', async () => {
        const { event, venues } = await eventWithVenues(1);
        await write(event, () => saving([newRequest(event, venues[0]!)]));
        const before = await store().events.changes(org, event.details.id, { limit: 10 });
        const moved: StoredEvent = {
          ...event,
          details: { ...event.details, name: 'Never', updatedAt: nextTime() },
        };
        const twin = newRequest(event, venues[0]!);
        await expect(
          write(event, () => ({
            ...saving([twin]),
            event: {
              event: moved,
              change: describeChange(ids, { type: 'operator' }, event.details, moved.details),
              document: eventDocument(moved.details),
            },
            changes: [stepRecord('venue_request.sent', twin)],
          })),
        ).rejects.toBeInstanceOf(Error);
        expect((await store().events.find(org, event.details.id))?.details.name).toBe(event.details.name);
        expect(await store().events.changes(org, event.details.id, { limit: 10 })).toEqual(before);
      });

      it('gives each write the requests as the writes before it left them, however many run at once', async () => {
        const { event, venues } = await eventWithVenues(8);
        const seen: number[] = [];
        await Promise.all(
          venues.map((venue) =>
            write(event, (_current, _stored, sourcing) => {
              seen.push(sourcing.length);
              return saving([newRequest(event, venue)]);
            }),
          ),
        );
        // Each write read inside its transaction, after the one before it committed: 0, 1, …, 7 requests.
        expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
        expect(await store().venueRequests.listForEvent(org, event.details.id)).toHaveLength(8);
      });

      it('gives a sourcing write the event as a plain update left it, and the update the write', async () => {
        const { event, venues } = await eventWithVenues(1);
        const renamedAt = nextTime();
        await Promise.all([
          store().events.update(org, event.details.id, (current) => {
            const next = {
              ...current,
              details: { ...current.details, name: 'Renamed', updatedAt: renamedAt },
            };
            return {
              event: next,
              change: describeChange(ids, { type: 'operator' }, current.details, next.details),
              document: eventDocument(next.details),
            };
          }),
          write(event, () => saving([newRequest(event, venues[0]!)])),
        ]);
        const stored = await store().events.find(org, event.details.id);
        expect(stored?.details.name).toBe('Renamed');
        const document = await store().events.findDocument(org, event.details.id);
        expect(storedEtag(document!)).toBe(eventDocument(stored!.details).etag);
        expect(await store().venueRequests.listForEvent(org, event.details.id)).toHaveLength(1);
      });
    });
  });
}
