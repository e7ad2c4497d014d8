import type { Database } from 'better-sqlite3';
import type { ChangeRecord, NewChange } from '../../domain/changes.js';
import { toListItem } from '../../domain/derived.js';
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
import { ANCHOR_STEP, createPageAnchors } from './page-anchors.js';
import {
  KEY_CREDENTIALS_COLUMNS,
  KEY_WITH_USER,
  type KeyCredentialsValues,
  keyCredentialsOf,
} from './sqlite-identity-repository.js';
import { prepareMailInsert } from './sqlite-mail-outbox.js';
import { prepareSourcingReads, prepareSourcingWrites } from './sqlite-venue-request-repository.js';
import type { WriteQueue, Writing } from './write-queue.js';

interface EventRow {
  organization_id: string;
  created_by: string;
  previous_status: EventStatus | null;
  document: string;
  etag: string | null;
}

export function eventRow(event: StoredEvent, document: EventDocument) {
  const { details } = event;
  return {
    organization_id: event.organizationId,
    id: details.id,
    created_by: event.createdBy,
    created_at: details.createdAt,
    updated_at: details.updatedAt,
    status: details.status,
    previous_status: event.previousStatus,
    document: document.text,
    etag: document.etag,
    summary: JSON.stringify(toListItem(details)),
  };
}

interface ChangeRow {
  sequence: number;
  id: string;
  event_id: string;
  revision: number;
  type: ChangeRecord['type'];
  occurred_at: string;
  actor: string;
  changed_fields: string;
  diff: string;
  diff_snapshot: string | null;
  data: string | null;
}

export function changeFromRow(row: ChangeRow): ChangeRecord {
  return {
    id: row.id,
    sequence: Number(row.sequence),
    eventId: row.event_id,
    revision: row.revision,
    type: row.type,
    occurredAt: row.occurred_at,
    actor: JSON.parse(row.actor),
    changedFields: JSON.parse(row.changed_fields),
    diff: diffFromColumns(row),
    ...(row.data === null ? {} : { data: JSON.parse(row.data) }),
  };
}

export const CHANGE_COLUMNS = `sequence, id, event_id, revision, type, occurred_at, actor, changed_fields, ${DIFF_COLUMNS}, data`;

function fromRow(row: EventRow): StoredEvent {
  return {
    organizationId: row.organization_id,
    createdBy: row.created_by,
    previousStatus: row.previous_status,
    details: JSON.parse(row.document),
  };
}

export function createSqliteEventRepository(db: Database, queue: WriteQueue): EventRepository {
  // SQLite's lower() folds ASCII only; the name search folds every letter, as PostgreSQL's lower() does.
  db.function('lower_unicode', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? text.toLowerCase() : text,
  );
  // The two inserts every create makes take their values by position: binding by name costs more.
  const insertEvent = db.prepare(`
    INSERT INTO events (organization_id, id, created_by, created_at, updated_at, status, previous_status, document, etag, summary)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // The creator and the approvers of every group the creator belongs to; nobody when in no group.
  const grant = db.prepare(`
    INSERT INTO event_grants (organization_id, event_id, user_id)
    SELECT DISTINCT gm.organization_id, @event_id, gm.user_id
    FROM group_members gm
    JOIN users u ON u.organization_id = gm.organization_id AND u.id = gm.user_id AND u.active = 1
    WHERE gm.organization_id = @organization_id
      AND gm.group_id IN (SELECT group_id FROM group_members WHERE organization_id = @organization_id AND user_id = @creator)
      AND (gm.role = 'approver' OR gm.user_id = @creator)`);
  // A live record of the key wins (nothing changes); an expired one is replaced.
  const claimKey = db.prepare(`
    INSERT INTO idempotency_keys (organization_id, idempotency_key, request_hash, event_id, granted_to, created_at)
    VALUES (@organization_id, @key, @request_hash, @event_id, @granted_to, @created_at)
    ON CONFLICT (organization_id, idempotency_key) DO UPDATE SET
      request_hash = excluded.request_hash, event_id = excluded.event_id,
      granted_to = excluded.granted_to, created_at = excluded.created_at
    WHERE idempotency_keys.created_at < @expired_before`);
  // The text's bytes as a Buffer: sent as they are, without a decode here and an encode at the socket.
  // Read as arrays (KEY_CREDENTIALS_COLUMNS, then the document and its tag): every GET makes this
  // read, and a row of values costs less to make than one of named columns.
  const selectDocumentByKey = db
    .prepare(`
    SELECT ${KEY_CREDENTIALS_COLUMNS}, CAST(e.document AS BLOB) AS document, e.etag
    FROM ${KEY_WITH_USER}
    LEFT JOIN events e ON e.organization_id = k.organization_id AND e.id = ?
    WHERE k.key_id = ?`)
    .raw();
  const selectDocument = db.prepare(
    'SELECT CAST(document AS BLOB) AS document, etag FROM events WHERE organization_id = ? AND id = ?',
  );
  const selectEvent = db.prepare(
    'SELECT organization_id, created_by, previous_status, document, etag FROM events WHERE organization_id = ? AND id = ?',
  );
  // An update's read: the event and its latest revision in one statement.
  const selectEventForUpdate = db.prepare(`
    SELECT organization_id, created_by, previous_status, document, etag,
      (SELECT MAX(revision) FROM event_changes c WHERE c.organization_id = e.organization_id AND c.event_id = e.id) AS revision
    FROM events e WHERE organization_id = ? AND id = ?`);
  const selectOrganization = db.prepare('SELECT organization_id FROM events WHERE id = ?').pluck();
  const updateEvent = db.prepare(`
    UPDATE events SET updated_at = @updated_at, status = @status, previous_status = @previous_status,
      document = @document, etag = @etag, summary = @summary
    WHERE organization_id = @organization_id AND id = @id`);
  // SQLite rewrites the entry of every index on a column the UPDATE sets, changed or not: an update
  // that keeps the status leaves events_by_status alone (one page less written per PATCH).
  const updateEventKeepingStatus = db.prepare(`
    UPDATE events SET updated_at = @updated_at, document = @document, etag = @etag, summary = @summary
    WHERE organization_id = @organization_id AND id = @id`);
  const selectTotal = db.prepare('SELECT event_count FROM organizations WHERE id = ?').pluck();
  const selectPage = db
    .prepare(
      'SELECT summary FROM events WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
    )
    .pluck();
  const selectPageOldestFirst = db
    .prepare('SELECT summary FROM events WHERE organization_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?')
    .pluck();
  const selectPageFromAnchor = db
    .prepare(`
      SELECT summary FROM events WHERE organization_id = ? AND (created_at, id) >= (?, ?)
      ORDER BY created_at, id LIMIT ? OFFSET ?`)
    .pluck();
  const anchors = createPageAnchors(db);
  /**
   * OFFSET steps through the index one entry at a time, so a page in the older half is read from the
   * oldest end, where it is near, and reversed; a page far from both ends starts from the nearest page
   * anchor (page-anchors.ts). The total is the organization's event_count, kept in the same
   * transaction as every insert, and read in one snapshot with the page.
   */
  const readPage = db.transaction((organizationId: string, offset: number, limit: number): EventPage => {
    const total = (selectTotal.get(organizationId) as number | undefined) ?? 0;
    if (offset >= total) return { items: [], total };
    const olderThanPage = total - offset - limit;
    if (Math.min(offset, olderThanPage) >= ANCHOR_STEP) {
      const { from, skip } = anchors.seek(organizationId, total, olderThanPage);
      const items = selectPageFromAnchor.all(organizationId, from[0], from[1], limit, skip) as string[];
      return { items: items.reverse(), total };
    }
    if (olderThanPage >= offset) {
      return { items: selectPage.all(organizationId, limit, offset) as string[], total };
    }
    const size = Math.min(limit, total - offset);
    const items = selectPageOldestFirst.all(organizationId, size, Math.max(olderThanPage, 0)) as string[];
    return { items: items.reverse(), total };
  });

  // The organization's counter numbers changes in commit order: SQLite has one writer at a time. The
  // write queue reads it once per transaction and writes it once before the COMMIT.
  const { counters } = queue;
  const nextRevision = db
    .prepare(
      'SELECT COALESCE(MAX(revision), 0) + 1 FROM event_changes WHERE organization_id = ? AND event_id = ?',
    )
    .pluck();
  const insertChange = db.prepare(`
    INSERT INTO event_changes (organization_id, sequence, id, event_id, revision, type, occurred_at, actor,
      changed_fields, diff, data, snapshot)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  /**
   * A change of `event` (whose row holds `document`) as its row, but for its sequence and revision,
   * which only the transaction that appends it knows; it occurred when the event was last updated,
   * unless told otherwise (a request step leaves the event as it is).
   */
  const changeRowOf = (
    event: StoredEvent,
    change: NewChange,
    document: string,
    occurredAt = event.details.updatedAt,
  ) => ({
    organizationId: event.organizationId,
    id: change.id,
    eventId: event.details.id,
    type: change.type,
    occurredAt,
    actor: JSON.stringify(change.actor),
    changedFields: JSON.stringify(change.changedFields),
    diff: storedDiff(change),
    data: change.data === undefined ? null : JSON.stringify(change.data),
    snapshot: document,
  });
  /** Appends a change's row inside the caller's transaction, numbered there. */
  const appendChangeRow = (row: ReturnType<typeof changeRowOf>, revision?: number) => {
    const { organizationId, eventId } = row;
    insertChange.run(
      organizationId,
      counters.nextSequence(organizationId),
      row.id,
      eventId,
      revision ?? nextRevision.get(organizationId, eventId),
      row.type,
      row.occurredAt,
      row.actor,
      row.changedFields,
      row.diff,
      row.data,
      row.snapshot,
    );
  };
  const appendChange = (
    event: StoredEvent,
    change: NewChange,
    document: string,
    occurredAt?: string,
    revision?: number,
  ) => appendChangeRow(changeRowOf(event, change, document, occurredAt), revision);
  const selectChanges = db.prepare(
    `SELECT ${CHANGE_COLUMNS} FROM event_changes WHERE organization_id = ? AND event_id = ? AND revision < ?
     ORDER BY revision DESC LIMIT ?`,
  );
  const selectRevision = db.prepare(
    `SELECT ${CHANGE_COLUMNS}, snapshot FROM event_changes WHERE organization_id = ? AND event_id = ? AND revision = ?`,
  );
  const selectChangesAfter = db.prepare(
    `SELECT ${CHANGE_COLUMNS} FROM event_changes WHERE organization_id = ? AND sequence > ? ORDER BY sequence LIMIT ?`,
  );
  const selectGranted = db.prepare(`
    SELECT e.organization_id, e.created_by, e.previous_status, e.document
    FROM event_grants g JOIN events e ON e.organization_id = g.organization_id AND e.id = g.event_id
    WHERE g.organization_id = ? AND g.user_id = ? AND g.event_id = ?`);
  const selectGrantees = db.prepare(`
    SELECT u.id AS userId, u.email, u.name FROM event_grants g
    JOIN users u ON u.organization_id = g.organization_id AND u.id = g.user_id
    WHERE g.organization_id = ? AND g.event_id = ? ORDER BY u.email, u.id`);

  const insertMails = prepareMailInsert(db);
  const sourcingReads = prepareSourcingReads(db);
  const writeSourcing = prepareSourcingWrites(db);

  const find = (organizationId: string, id: string): StoredEvent | undefined => {
    const row = selectEvent.get(organizationId, id) as EventRow | undefined;
    return row ? fromRow(row) : undefined;
  };

  return {
    insert({ event, change, document, mails }: EventWrite, idempotency) {
      // The rows are made before the job waits for its group, which then holds their texts alone,
      // not the event's objects: less to keep alive while the turn's other requests are read.
      const row = eventRow(event, document);
      const changeRow = changeRowOf(event, change, row.document);
      const { organizationId, createdBy } = event;
      const { id, createdAt } = event.details;
      const work = (writing?: Writing) => {
        writing?.();
        insertEvent.run(
          row.organization_id,
          row.id,
          row.created_by,
          row.created_at,
          row.updated_at,
          row.status,
          row.previous_status,
          row.document,
          row.etag,
          row.summary,
        );
        // The insert above refused an id already taken, and events are never deleted: revision 1.
        appendChangeRow(changeRow, 1);
        counters.eventCreated(organizationId);
        anchors.inserted(organizationId, [createdAt, id]);
        const granted = grant.run({ event_id: id, organization_id: organizationId, creator: createdBy });
        if (idempotency) {
          const claimed = claimKey.run({
            organization_id: organizationId,
            key: idempotency.key,
            request_hash: idempotency.requestHash,
            event_id: id,
            granted_to: granted.changes,
            created_at: createdAt,
            expired_before: idempotency.expiredBefore,
          });
          // Throwing rolls this job's savepoint back: the event is not written either.
          if (claimed.changes === 0) throw new IdempotencyKeyTakenError(idempotency.key);
        }
        if (mails) insertMails(mails);
        return { grantedTo: granted.changes };
      };
      // A create refuses only through its Idempotency-Key, after writing: that one needs a savepoint.
      return idempotency ? queue.runCounted(work) : queue.runChecked(work);
    },
    async findDocument(organizationId, id) {
      const row = selectDocument.get(organizationId, id) as
        | { document: Buffer; etag: string | null }
        | undefined;
      return row ? { body: row.document, etag: row.etag } : undefined;
    },
    async findDocumentByKey(keyId, eventId) {
      const row = selectDocumentByKey.get(eventId, keyId) as
        | [...KeyCredentialsValues, document: Buffer | null, etag: string | null]
        | undefined;
      if (!row) return undefined;
      const document = row[6];
      return {
        credentials: keyCredentialsOf(row),
        document: document === null ? undefined : { body: document, etag: row[7] },
      };
    },
    async find(organizationId, id) {
      return find(organizationId, id);
    },
    async findOrganizationOf(id) {
      return selectOrganization.get(id) as string | undefined;
    },
    update(organizationId, id, change) {
      // Every refusal (not found, cancelled, a precondition, invalid fields) comes from `change`, before any write.
      return queue.runChecked((writing) => {
        const stored = selectEventForUpdate.get(organizationId, id) as
          | (EventRow & { revision: number | null })
          | undefined;
        if (!stored) return undefined;
        const current = fromRow(stored);
        const write = change(current, { text: stored.document, etag: stored.etag });
        if (!write) return current;
        writing();
        const row = eventRow(write.event, write.document);
        const keepsStatus =
          write.event.details.status === current.details.status &&
          write.event.previousStatus === current.previousStatus;
        (keepsStatus ? updateEventKeepingStatus : updateEvent).run(row);
        appendChange(
          write.event,
          write.change,
          row.document,
          write.event.details.updatedAt,
          (stored.revision ?? 0) + 1,
        );
        if (write.mails) insertMails(write.mails);
        return write.event;
      });
    },
    updateSourcing(organizationId, id, change) {
      // Synchronous inside the write queue's transaction: nothing else writes between the reads and the writes.
      return queue.run(() => {
        const stored = selectEvent.get(organizationId, id) as EventRow | undefined;
        if (!stored) return undefined;
        const current = fromRow(stored);
        const sourcing = sourcingReads.forEvent(organizationId, id);
        const write = change(current, { text: stored.document, etag: stored.etag }, sourcing);
        if (!write) return current;
        let event = current;
        let snapshot = stored.document;
        if (write.event) {
          const row = eventRow(write.event.event, write.event.document);
          updateEvent.run(row);
          appendChange(write.event.event, write.event.change, row.document);
          event = write.event.event;
          snapshot = row.document;
        }
        writeSourcing(organizationId, id, write);
        for (const step of write.changes) appendChange(event, step.change, snapshot, step.occurredAt);
        insertMails(write.mails);
        return event;
      });
    },
    async list(organizationId, { offset, limit }): Promise<EventPage> {
      return readPage(organizationId, offset, limit);
    },
    async listFiltered(organizationId, filter, { offset, limit }): Promise<EventPage> {
      const conditions = ['organization_id = ?'];
      const values: unknown[] = [organizationId];
      if (filter.statuses.length > 0) {
        conditions.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`);
        values.push(...filter.statuses);
      }
      if (filter.updatedAfter !== undefined) {
        // Both sides are ISO 8601 UTC texts with milliseconds, so text order is time order.
        conditions.push('updated_at > ?');
        values.push(filter.updatedAfter);
      }
      const where = conditions.join(' AND ');
      // One read transaction: the total and the page come from the same snapshot.
      const read = db.transaction((): EventPage => {
        const total = db
          .prepare(`SELECT COUNT(*) FROM events WHERE ${where}`)
          .pluck()
          .get(...values) as number;
        if (offset >= total) return { items: [], total };
        const items = db
          .prepare(
            `SELECT summary FROM events WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
          )
          .pluck()
          .all(...values, limit, offset) as string[];
        return { items, total };
      });
      return read();
    },
    async findGranted(organizationId, userId, id) {
      const row = selectGranted.get(organizationId, userId, id) as EventRow | undefined;
      return row ? fromRow(row) : undefined;
    },
    async listGranted(organizationId, userId, query) {
      const conditions = ['g.organization_id = ?', 'g.user_id = ?'];
      const values: unknown[] = [organizationId, userId];
      if (query.statuses.length > 0) {
        conditions.push(`e.status IN (${query.statuses.map(() => '?').join(', ')})`);
        values.push(...query.statuses);
      }
      if (query.nameContains !== '') {
        // instr, not LIKE: the text is matched as typed, % and _ included.
        conditions.push("instr(lower_unicode(json_extract(e.document, '$.name')), lower_unicode(?)) > 0");
        values.push(query.nameContains);
      }
      const from = `FROM event_grants g
        JOIN events e ON e.organization_id = g.organization_id AND e.id = g.event_id
        JOIN users u ON u.organization_id = e.organization_id AND u.id = e.created_by
        WHERE ${conditions.join(' AND ')}`;
      const read = db.transaction(() => {
        const total = db
          .prepare(`SELECT COUNT(*) ${from}`)
          .pluck()
          .get(...values) as number;
        const rows = db
          .prepare(
            `SELECT e.document, u.id AS userId, u.email, u.name ${from}
             ORDER BY e.created_at DESC, e.id DESC LIMIT ? OFFSET ?`,
          )
          .all(...values, query.limit, query.offset) as Array<Grantee & { document: string }>;
        return { total, rows };
      });
      const { total, rows } = read();
      const items: GrantedEvent[] = rows.map(({ document, userId: creatorId, email, name }) => ({
        details: JSON.parse(document),
        createdBy: { userId: creatorId, email, name },
      }));
      return { items, total };
    },
    async grantees(organizationId, eventId) {
      return selectGrantees.all(organizationId, eventId) as Grantee[];
    },
    async changes(organizationId, eventId, { limit, beforeRevision }) {
      const before = beforeRevision ?? Number.MAX_SAFE_INTEGER;
      return (selectChanges.all(organizationId, eventId, before, limit) as ChangeRow[]).map(changeFromRow);
    },
    async revision(organizationId, eventId, revision) {
      const row = selectRevision.get(organizationId, eventId, revision) as
        | (ChangeRow & { snapshot: string })
        | undefined;
      return row ? { change: changeFromRow(row), snapshot: row.snapshot } : undefined;
    },
    async changesAfter(organizationId, { afterSequence, limit }) {
      // SQLite has one writer at a time, so a committed change never appears behind a later sequence.
      return (selectChangesAfter.all(organizationId, afterSequence, limit) as ChangeRow[]).map(changeFromRow);
    },
  };
}
