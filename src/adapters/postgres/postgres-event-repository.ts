import type { Pool, PoolClient } from 'pg';
import type { ChangeRecord, NewChange } from '../../domain/changes.js';
import { toListItem } from '../../domain/derived.js';
import type { OutboxMail } from '../../domain/mail.js';
import type { EventStatus, StoredEvent } from '../../domain/types.js';
import type {
  EventDocument,
  EventPage,
  EventRepository,
  EventWrite,
  GrantedEvent,
  Grantee,
} from '../../ports/event-repository.js';
import { IdempotencyKeyTakenError } from '../../ports/idempotency-repository.js';
import { DIFF_COLUMNS, diffFromColumns, storedDiff } from '../change-diffs.js';
import {
  KEY_CREDENTIALS_COLUMNS,
  KEY_WITH_USER,
  type KeyCredentialsRow,
  toKeyCredentials,
} from './postgres-identity-repository.js';
import { insertMails } from './postgres-mail-outbox.js';
import { inTransaction, query, retryingRaces } from './postgres-transaction.js';
import { readSourcing, writeSourcing } from './postgres-venue-request-repository.js';

export interface EventRow {
  organization_id: string;
  created_by: string;
  previous_status: EventStatus | null;
  document: string;
  etag: string | null;
}

const EVENT_COLUMNS = 'organization_id, created_by, previous_status, document, etag';

export function eventValues(event: StoredEvent, document: EventDocument): unknown[] {
  const { details } = event;
  return [
    event.organizationId,
    details.id,
    event.createdBy,
    details.createdAt,
    details.updatedAt,
    details.status,
    event.previousStatus,
    document.text,
    JSON.stringify(toListItem(details)),
    document.etag,
  ];
}

export function fromEventRow(row: EventRow): StoredEvent {
  return {
    organizationId: row.organization_id,
    createdBy: row.created_by,
    previousStatus: row.previous_status,
    details: JSON.parse(row.document),
  };
}

export const INSERT_EVENT = `
  INSERT INTO events (organization_id, id, created_by, created_at, updated_at, status, previous_status, document, summary, etag)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

// The creator and the approvers of every group the creator belongs to; nobody when in no group.
// $1 the organization, $2 the event, $3 the creator.
const GRANT = `
  INSERT INTO event_grants (organization_id, event_id, user_id)
  SELECT DISTINCT gm.organization_id, $2, gm.user_id
  FROM group_members gm
  JOIN users u ON u.organization_id = gm.organization_id AND u.id = gm.user_id AND u.active
  WHERE gm.organization_id = $1
    AND gm.group_id IN (SELECT group_id FROM group_members WHERE organization_id = $1 AND user_id = $3)
    AND (gm.role = 'approver' OR gm.user_id = $3)`;

// A live record of the key wins (no row changes); an expired one is replaced. A concurrent insert of
// the same key waits on the primary key until the other transaction ends, then sees its row.
const CLAIM_KEY = `
  INSERT INTO idempotency_keys (organization_id, idempotency_key, request_hash, event_id, granted_to, created_at)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (organization_id, idempotency_key) DO UPDATE SET
    request_hash = excluded.request_hash, event_id = excluded.event_id,
    granted_to = excluded.granted_to, created_at = excluded.created_at
  WHERE idempotency_keys.created_at < $7`;

// The total and one page in a single round trip; the total is the organization's counter, O(1).
const PAGE = `
  SELECT o.event_count AS total, page.summary
  FROM organizations o
  LEFT JOIN LATERAL (
    SELECT e.summary FROM events e
    WHERE e.organization_id = o.id
    ORDER BY e.created_at DESC, e.id DESC
    LIMIT $2 OFFSET $3
  ) page ON true
  WHERE o.id = $1`;

/**
 * Appends a create's change record (revision 1) and counts the event, in a create's transaction (one
 * with an idempotency key or mails). The organization's row is updated to number it, and its lock is held until
 * commit, so the organization's changes commit one at a time in sequence order: a reader of the feed
 * never sees sequence n + 1 before n. Run last in the transaction, so the lock is held briefly.
 */
const APPEND_CREATED_CHANGE = `
  WITH numbered AS (
    UPDATE organizations SET change_sequence = change_sequence + 1, event_count = event_count + 1
    WHERE id = $1 RETURNING change_sequence
  )
  INSERT INTO event_changes (organization_id, sequence, id, event_id, revision, type, occurred_at, actor,
    changed_fields, diff, data, snapshot)
  SELECT $1, numbered.change_sequence, $2, $3, 1, $4, $5, $6, $7, $8, $9, $10
  FROM numbered`;

/**
 * An update's write and its change record in one statement, committed on its own: APPEND_CREATED_CHANGE's
 * $1–$10 ($10 the document), then the event's new updated_at, status, previous_status, summary and
 * etag, and $16 the row version (`xmin`) the change was computed from. The row is written only when it
 * is still that version; the organization is numbered and the change appended only when it was. So
 * the organization's row lock is taken and released inside one statement and its commit, never held
 * while a round trip to the server is under way.
 */
const UPDATE_IF_UNCHANGED_AND_APPEND_CHANGE = `
  WITH updated AS (
    UPDATE events SET updated_at = $11, status = $12, previous_status = $13, document = $10, summary = $14,
      etag = $15
    WHERE organization_id = $1 AND id = $3 AND xmin = $16::text::xid
    RETURNING 1
  ), numbered AS (
    UPDATE organizations SET change_sequence = change_sequence + 1
    WHERE id = $1 AND EXISTS (SELECT 1 FROM updated) RETURNING change_sequence
  )
  INSERT INTO event_changes (organization_id, sequence, id, event_id, revision, type, occurred_at, actor,
    changed_fields, diff, data, snapshot)
  SELECT $1, numbered.change_sequence, $2, $3,
    COALESCE((SELECT MAX(revision) FROM event_changes WHERE organization_id = $1 AND event_id = $3), 0) + 1,
    $4, $5, $6, $7, $8, $9, $10
  FROM numbered`;

/**
 * A create without an idempotency key in one statement, committed on its own: INSERT_EVENT's $1–$10,
 * the grants (GRANT), the organization's numbering and count, and the change record ($11–$17:
 * APPEND_CREATED_CHANGE's $2 and $4–$9). Answers how many people were granted.
 */
const INSERT_AND_APPEND_CHANGE = `
  WITH inserted AS (${INSERT_EVENT}
  ), granted AS (${GRANT}
    RETURNING 1
  ), numbered AS (
    UPDATE organizations SET change_sequence = change_sequence + 1, event_count = event_count + 1
    WHERE id = $1 RETURNING change_sequence
  )
  INSERT INTO event_changes (organization_id, sequence, id, event_id, revision, type, occurred_at, actor,
    changed_fields, diff, data, snapshot)
  SELECT $1, numbered.change_sequence, $11, $2, 1, $12, $13, $14, $15, $16, $17, $8
  FROM numbered
  RETURNING (SELECT COUNT(*) FROM granted)::int AS granted_to`;

/**
 * The change records of a sourcing write, numbered in one statement: the organization's sequence moves
 * by their count (its row lock is then held to commit), and each takes the next revision of the event,
 * in the order given. $1 the organization, $2 the count, $3 the event, $4 the snapshot (the event's
 * document after the write), $5–$11 one array per column.
 */
const APPEND_CHANGES = `
  WITH numbered AS (
    UPDATE organizations SET change_sequence = change_sequence + $2 WHERE id = $1 RETURNING change_sequence
  ), latest AS (
    SELECT COALESCE(MAX(revision), 0) AS revision FROM event_changes WHERE organization_id = $1 AND event_id = $3
  )
  INSERT INTO event_changes (organization_id, sequence, id, event_id, revision, type, occurred_at, actor,
    changed_fields, diff, data, snapshot)
  SELECT $1, numbered.change_sequence - $2 + record.position, record.id, $3, latest.revision + record.position,
    record.type, record.occurred_at, record.actor, record.changed_fields, record.diff, record.data, $4
  FROM numbered, latest,
    unnest($5::text[], $6::text[], $7::timestamptz[], $8::text[], $9::text[], $10::text[], $11::text[])
      WITH ORDINALITY AS record(id, type, occurred_at, actor, changed_fields, diff, data, position)`;

const UPDATE_LOCKED_EVENT = `
  UPDATE events SET updated_at = $3, status = $4, previous_status = $5, document = $6, summary = $7, etag = $8
  WHERE organization_id = $1 AND id = $2`;

/**
 * A write of the event's sourcing (D21–D24), in one transaction: the event's row is locked first, so
 * the requests read next are the ones the change decides on, and no other sourcing write (nor any
 * write of the event) comes between the read and the commit; then the event, the requests, the
 * proposals, the mails, and last the change records, so the organization's row lock is held briefly.
 */
async function updateSourcing(
  pool: Pool,
  organizationId: string,
  id: string,
  change: Parameters<EventRepository['updateSourcing']>[2],
): Promise<StoredEvent | undefined> {
  return inTransaction(pool, async (client) => {
    const { rows } = await query<EventRow>(
      client,
      `SELECT ${EVENT_COLUMNS} FROM events WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, id],
      'event-to-update-locked-plain',
    );
    const row = rows[0];
    if (!row) return undefined;
    const current = fromEventRow(row);
    const sourcing = await readSourcing(client, organizationId, id);
    const write = change(current, { text: row.document, etag: row.etag }, sourcing);
    if (!write) return current;
    let event = current;
    let snapshot = row.document;
    const records: Array<{ change: NewChange; occurredAt: string }> = [];
    if (write.event) {
      event = write.event.event;
      snapshot = write.event.document.text;
      const { details } = event;
      await query(client, UPDATE_LOCKED_EVENT, [
        organizationId,
        id,
        details.updatedAt,
        details.status,
        event.previousStatus,
        snapshot,
        JSON.stringify(toListItem(details)),
        write.event.document.etag,
      ]);
      records.push({ change: write.event.change, occurredAt: details.updatedAt });
    }
    await writeSourcing(client, organizationId, id, write);
    await insertMails(client, write.mails);
    records.push(...write.changes);
    if (records.length > 0) {
      const column = <T>(read: (record: (typeof records)[number]) => T) => records.map(read);
      await query(client, APPEND_CHANGES, [
        organizationId,
        records.length,
        id,
        snapshot,
        column(({ change: record }) => record.id),
        column(({ change: record }) => record.type),
        column(({ occurredAt }) => occurredAt),
        column(({ change: record }) => JSON.stringify(record.actor)),
        column(({ change: record }) => JSON.stringify(record.changedFields)),
        column(({ change: record }) => storedDiff(record)),
        column(({ change: record }) => (record.data === undefined ? null : JSON.stringify(record.data))),
      ]);
    }
    return event;
  });
}

/** Optimistic attempts at an update before it waits its turn behind the row lock instead. */
const OPTIMISTIC_ATTEMPTS = 3;

function changeValues(event: StoredEvent, change: NewChange, document: string): unknown[] {
  return [
    event.organizationId,
    change.id,
    event.details.id,
    change.type,
    event.details.updatedAt,
    JSON.stringify(change.actor),
    JSON.stringify(change.changedFields),
    storedDiff(change),
    change.data === undefined ? null : JSON.stringify(change.data),
    document,
  ];
}

interface ChangeRow {
  sequence: string;
  id: string;
  event_id: string;
  revision: number;
  type: ChangeRecord['type'];
  occurred_at: Date;
  actor: string;
  changed_fields: string;
  diff: string;
  diff_snapshot: string | null;
  data: string | null;
}

export const CHANGE_COLUMNS = `sequence, id, event_id, revision, type, occurred_at, actor, changed_fields, ${DIFF_COLUMNS}, data`;

export function changeFromRow(row: ChangeRow): ChangeRecord {
  return {
    id: row.id,
    sequence: Number(row.sequence),
    eventId: row.event_id,
    revision: row.revision,
    type: row.type,
    occurredAt: row.occurred_at.toISOString(),
    actor: JSON.parse(row.actor),
    changedFields: JSON.parse(row.changed_fields),
    diff: diffFromColumns(row),
    ...(row.data === null ? {} : { data: JSON.parse(row.data) }),
  };
}

/** What an optimistic write answers when another write changed the row after it was read. */
const RACED = Symbol('raced');

type ChangeEvent = Parameters<EventRepository['update']>[2];

/** Thrown inside a transaction whose optimistic write lost its race, so the mails written before it roll back. */
class LostRace extends Error {}

/**
 * writeIfUnchanged's write when mails tell of the change: the mails and the conditional update in one
 * transaction (the row lock's, when `locked`), so they commit together or not at all.
 */
async function writeWithMails(
  pool: Pool,
  locked: PoolClient | undefined,
  event: StoredEvent,
  mails: readonly OutboxMail[],
  values: unknown[],
): Promise<StoredEvent | typeof RACED> {
  const write = async (client: PoolClient) => {
    // The mails first: the organization's row lock, taken by the update, is then held for one statement only.
    await insertMails(client, mails);
    const written = await query(client, UPDATE_IF_UNCHANGED_AND_APPEND_CHANGE, values, 'event-update');
    if (written.rowCount !== 1) throw new LostRace(`event ${event.details.id} changed since it was read`);
    return event;
  };
  if (locked) return write(locked);
  try {
    return await inTransaction(pool, write);
  } catch (error) {
    if (error instanceof LostRace) return RACED;
    throw error;
  }
}

/**
 * Reads the event (under its row lock inside the transaction of `locked`), makes the change, and
 * writes it together with its change record only if the row is still the version read
 * (UPDATE_IF_UNCHANGED_AND_APPEND_CHANGE). A write with mails takes a transaction, so the mails
 * commit with it or not at all; a write without stays one statement that commits on its own.
 */
async function writeIfUnchanged(
  pool: Pool,
  locked: PoolClient | undefined,
  organizationId: string,
  id: string,
  change: ChangeEvent,
): Promise<StoredEvent | undefined | typeof RACED> {
  const db = locked ?? pool;
  const { rows } = await query<EventRow & { version: string }>(
    db,
    `SELECT ${EVENT_COLUMNS}, xmin::text AS version FROM events WHERE organization_id = $1 AND id = $2${
      locked ? ' FOR UPDATE' : ''
    }`,
    [organizationId, id],
    locked ? 'event-to-update-locked' : 'event-to-update',
  );
  const row = rows[0];
  if (!row) return undefined;
  const current = fromEventRow(row);
  const write = change(current, { text: row.document, etag: row.etag });
  if (!write) return current;
  const { event, document, mails } = write;
  const values = [
    ...changeValues(event, write.change, document.text),
    event.details.updatedAt,
    event.details.status,
    event.previousStatus,
    JSON.stringify(toListItem(event.details)),
    document.etag,
    row.version,
  ];
  if (mails && mails.length > 0) return writeWithMails(pool, locked, event, mails, values);
  const written = await query(db, UPDATE_IF_UNCHANGED_AND_APPEND_CHANGE, values, 'event-update');
  return written.rowCount === 1 ? event : RACED;
}

/**
 * An update without a transaction around it: read, change, and write if the row is still the version
 * read, one statement that commits on its own (so no lock is held across a round trip). A write that
 * lost the race reads and changes again; after OPTIMISTIC_ATTEMPTS such losses the update takes the
 * row lock and waits its turn, so the writers of a busy event cannot starve one another.
 */
async function updateEvent(
  pool: Pool,
  organizationId: string,
  id: string,
  change: ChangeEvent,
): Promise<StoredEvent | undefined> {
  for (let attempt = 1; attempt <= OPTIMISTIC_ATTEMPTS; attempt++) {
    const outcome = await retryingRaces(() => writeIfUnchanged(pool, undefined, organizationId, id, change));
    if (outcome !== RACED) return outcome;
  }
  return inTransaction(pool, async (client) => {
    const outcome = await writeIfUnchanged(pool, client, organizationId, id, change);
    // Under the row lock nobody else writes the row between the read and the write.
    if (outcome === RACED) throw new Error(`event ${id} changed while its row was locked`);
    return outcome;
  });
}

export function createPostgresEventRepository(pool: Pool): EventRepository {
  return {
    insert({ event, change, document, mails }: EventWrite, idempotency) {
      if (!idempotency && !(mails && mails.length > 0)) {
        const values = eventValues(event, document);
        const recorded = changeValues(event, change, document.text);
        return retryingRaces(async () => {
          const { rows } = await query<{ granted_to: number }>(
            pool,
            INSERT_AND_APPEND_CHANGE,
            [...values, recorded[1], ...recorded.slice(3, 9)],
            'event-insert',
          );
          return { grantedTo: rows[0]?.granted_to ?? 0 };
        });
      }
      return inTransaction(pool, async (client) => {
        const values = eventValues(event, document);
        await query(client, INSERT_EVENT, values);
        const granted = await query(client, GRANT, [event.organizationId, event.details.id, event.createdBy]);
        if (idempotency) {
          const claimed = await query(client, CLAIM_KEY, [
            event.organizationId,
            idempotency.key,
            idempotency.requestHash,
            event.details.id,
            granted.rowCount,
            event.details.createdAt,
            idempotency.expiredBefore,
          ]);
          // Throwing rolls the transaction back: the event and its mails are not written either.
          if (claimed.rowCount === 0) throw new IdempotencyKeyTakenError(idempotency.key);
        }
        if (mails) await insertMails(client, mails);
        // Last, so the organization's row lock is held for the shortest time; it counts the event too.
        await query(client, APPEND_CREATED_CHANGE, changeValues(event, change, document.text));
        return { grantedTo: granted.rowCount };
      });
    },
    async findDocument(organizationId, id) {
      const { rows } = await query<{ document: string; etag: string | null }>(
        pool,
        'SELECT document, etag FROM events WHERE organization_id = $1 AND id = $2',
        [organizationId, id],
        'event-document',
      );
      return rows[0] ? { body: Buffer.from(rows[0].document), etag: rows[0].etag } : undefined;
    },
    async findDocumentByKey(keyId, eventId) {
      const { rows } = await query<KeyCredentialsRow & { document: string | null; etag: string | null }>(
        pool,
        `SELECT ${KEY_CREDENTIALS_COLUMNS}, e.document, e.etag
         FROM ${KEY_WITH_USER}
         LEFT JOIN events e ON e.organization_id = k.organization_id AND e.id = $2
         WHERE k.key_id = $1`,
        [keyId, eventId],
        'event-document-by-key',
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        credentials: toKeyCredentials(row),
        document: row.document === null ? undefined : { body: Buffer.from(row.document), etag: row.etag },
      };
    },
    async find(organizationId, id) {
      const { rows } = await query<EventRow>(
        pool,
        `SELECT ${EVENT_COLUMNS} FROM events WHERE organization_id = $1 AND id = $2`,
        [organizationId, id],
      );
      return rows[0] ? fromEventRow(rows[0]) : undefined;
    },
    async findOrganizationOf(id) {
      const { rows } = await query<{ organization_id: string }>(
        pool,
        'SELECT organization_id FROM events WHERE id = $1',
        [id],
      );
      return rows[0]?.organization_id;
    },
    update(organizationId, id, change) {
      return updateEvent(pool, organizationId, id, change);
    },
    updateSourcing(organizationId, id, change) {
      return updateSourcing(pool, organizationId, id, change);
    },
    async list(organizationId, { offset, limit }): Promise<EventPage> {
      const { rows } = await query<{ total: number; summary: string | null }>(
        pool,
        PAGE,
        [organizationId, limit, offset],
        'event-page',
      );
      const total = rows[0]?.total ?? 0;
      return { items: rows.flatMap((row) => (row.summary === null ? [] : [row.summary])), total };
    },
    async listFiltered(organizationId, filter, { offset, limit }): Promise<EventPage> {
      const conditions = ['organization_id = $1'];
      const values: unknown[] = [organizationId];
      if (filter.statuses.length > 0) {
        values.push([...filter.statuses]);
        conditions.push(`status = ANY($${values.length}::text[])`);
      }
      if (filter.updatedAfter !== undefined) {
        values.push(filter.updatedAfter);
        conditions.push(`updated_at > $${values.length}::timestamptz`);
      }
      const where = conditions.join(' AND ');
      values.push(limit, offset);
      // The total and the page in one statement, so in one snapshot and one round trip.
      const { rows } = await query<{ total: string; summary: string | null }>(
        pool,
        `SELECT counted.total, page.summary
         FROM (SELECT COUNT(*) AS total FROM events WHERE ${where}) counted
         LEFT JOIN LATERAL (
           SELECT summary FROM events WHERE ${where}
           ORDER BY created_at DESC, id DESC LIMIT $${values.length - 1} OFFSET $${values.length}
         ) page ON true`,
        values,
      );
      const total = Number(rows[0]?.total ?? 0);
      return { items: rows.flatMap((row) => (row.summary === null ? [] : [row.summary])), total };
    },
    async findGranted(organizationId, userId, id) {
      const { rows } = await query<EventRow>(
        pool,
        `SELECT e.organization_id, e.created_by, e.previous_status, e.document
         FROM event_grants g JOIN events e ON e.organization_id = g.organization_id AND e.id = g.event_id
         WHERE g.organization_id = $1 AND g.user_id = $2 AND g.event_id = $3`,
        [organizationId, userId, id],
      );
      return rows[0] ? fromEventRow(rows[0]) : undefined;
    },
    async listGranted(organizationId, userId, { statuses, nameContains, offset, limit }) {
      // strpos, not LIKE: the text is matched as typed, % and _ included.
      const { rows } = await query<Grantee & { document: string; total: string }>(
        pool,
        `SELECT e.document, u.id AS "userId", u.email, u.name, COUNT(*) OVER () AS total
         FROM event_grants g
         JOIN events e ON e.organization_id = g.organization_id AND e.id = g.event_id
         JOIN users u ON u.organization_id = e.organization_id AND u.id = e.created_by
         WHERE g.organization_id = $1 AND g.user_id = $2
           AND (cardinality($3::text[]) = 0 OR e.status = ANY($3::text[]))
           AND ($4 = '' OR strpos(lower(e.document::json->>'name'), lower($4)) > 0)
         ORDER BY e.created_at DESC, e.id DESC LIMIT $5 OFFSET $6`,
        [organizationId, userId, [...statuses], nameContains, limit, offset],
      );
      let total = Number(rows[0]?.total ?? 0);
      if (rows.length === 0 && offset > 0) {
        // A page past the end has no row to carry the count.
        const counted = await this.listGranted(organizationId, userId, {
          statuses,
          nameContains,
          offset: 0,
          limit: 1,
        });
        total = counted.total;
      }
      const items: GrantedEvent[] = rows.map(({ document, userId: creatorId, email, name }) => ({
        details: JSON.parse(document),
        createdBy: { userId: creatorId, email, name },
      }));
      return { items, total };
    },
    async grantees(organizationId, eventId) {
      const { rows } = await query<Grantee>(
        pool,
        `SELECT u.id AS "userId", u.email, u.name FROM event_grants g
         JOIN users u ON u.organization_id = g.organization_id AND u.id = g.user_id
         WHERE g.organization_id = $1 AND g.event_id = $2 ORDER BY u.email, u.id`,
        [organizationId, eventId],
      );
      return rows;
    },
    async changes(organizationId, eventId, { limit, beforeRevision }) {
      const { rows } = await query<ChangeRow>(
        pool,
        `SELECT ${CHANGE_COLUMNS} FROM event_changes
         WHERE organization_id = $1 AND event_id = $2 AND revision < $3 ORDER BY revision DESC LIMIT $4`,
        [organizationId, eventId, beforeRevision ?? 2_147_483_647, limit],
      );
      return rows.map(changeFromRow);
    },
    async revision(organizationId, eventId, revision) {
      const { rows } = await query<ChangeRow & { snapshot: string }>(
        pool,
        `SELECT ${CHANGE_COLUMNS}, snapshot FROM event_changes
         WHERE organization_id = $1 AND event_id = $2 AND revision = $3`,
        [organizationId, eventId, revision],
      );
      return rows[0] ? { change: changeFromRow(rows[0]), snapshot: rows[0].snapshot } : undefined;
    },
    async changesAfter(organizationId, { afterSequence, limit }) {
      // Numbers are taken under the organization's row lock, held to commit (by every statement that
      // appends a change): when this snapshot sees sequence n, every smaller number committed before n was even taken, so it is
      // seen too. A change still in flight gets a number above every one returned here.
      const { rows } = await query<ChangeRow>(
        pool,
        `SELECT ${CHANGE_COLUMNS} FROM event_changes
         WHERE organization_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3`,
        [organizationId, afterSequence, limit],
      );
      return rows.map(changeFromRow);
    },
  };
}
