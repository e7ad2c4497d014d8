/**
 * Copies every record from one store into another, empty one (typically the embedded SQLite file
 * into PostgreSQL when moving to several instances), then reads the target back and checks it holds
 * exactly what was sent: the same count of every kind and the same content digest.
 */
import { createHash, type Hash } from 'node:crypto';
import { ConflictError } from '../domain/errors.js';
import type { RecordBatch, RecordKind } from '../ports/data-transfer.js';
import type { Store } from '../ports/store.js';
import { canonicalJson } from './canonical-json.js';

const KINDS: RecordKind[] = [
  'organizations',
  'users',
  'groups',
  'memberships',
  'apiKeys',
  'events',
  'grants',
  'idempotencyKeys',
  'passwords',
  'invites',
  'sessions',
  'notificationOptOuts',
  'changes',
  'venues',
  'venueRequests',
  'proposals',
  'requestVersions',
  'venueRequestLinks',
  'venueQuestions',
  'webhookEndpoints',
  'webhookDeliveries',
  'mails',
  'serverSecrets',
];

export interface CopyReport {
  /** Records copied, by kind. */
  copied: Record<RecordKind, number>;
  /** SHA-256 over every record in export order, identical for source and target. */
  digest: string;
}

/** Counts and digests records as they pass. */
export class RecordTally {
  readonly counts = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<RecordKind, number>;
  private readonly hash: Hash = createHash('sha256');

  add(batch: RecordBatch): void {
    this.counts[batch.kind] += batch.records.length;
    for (const record of batch.records) this.hash.update(`${batch.kind}\t${canonicalJson(record)}\n`);
  }

  digest(): string {
    return `sha256:${this.hash.copy().digest('hex')}`;
  }
}

async function* counted(batches: AsyncIterable<RecordBatch>, tally: RecordTally) {
  for await (const batch of batches) {
    tally.add(batch);
    yield batch;
  }
}

/** The tally of everything a store holds. */
export async function tallyStore(store: Store): Promise<RecordTally> {
  const tally = new RecordTally();
  for await (const batch of store.transfer.exportRecords()) tally.add(batch);
  return tally;
}

export async function copyData(source: Store, target: Store): Promise<CopyReport> {
  await source.ping();
  await target.migrate();
  if ((await target.identity.countOrganizations()) > 0) {
    throw new ConflictError('The target database already holds data; copy-data fills an empty one only.');
  }
  const sent = new RecordTally();
  await target.transfer.importRecords(counted(source.transfer.exportRecords(), sent));
  const stored = await tallyStore(target);
  const differences = KINDS.filter((kind) => sent.counts[kind] !== stored.counts[kind]).map(
    (kind) => `${kind}: sent ${sent.counts[kind]}, stored ${stored.counts[kind]}`,
  );
  if (differences.length > 0 || sent.digest() !== stored.digest()) {
    throw new Error(
      `The copy does not match its source (${differences.join('; ') || 'content digest differs'}); check the target before using it.`,
    );
  }
  return { copied: sent.counts, digest: sent.digest() };
}
