/**
 * The floor on SQLite: better-sqlite3 on the service's own database file, with the service's
 * durability (WAL, synchronous=FULL, group commit) and page cache. Reads run synchronously in the
 * request's own turn; writes join the next group commit and are answered after it.
 */
import type { RequestListener } from 'node:http';
import Database from 'better-sqlite3';
import { admit, apiKeyOf, type Credentials, createTouchSchedule, type Principal } from './access.js';
import { isUuid } from './checks.js';
import { buildNewEvent } from './create-event.js';
import { settlePlaces } from './derived.js';
import type { Details } from './event-model.js';
import { createdWrite, etagOf, updatedWrite } from './event-write.js';
import { contentTypeRefusal, Exchange, NOT_IMPLEMENTED, readBody, routeOf } from './exchange.js';
import type { FloorOptions } from './floor-options.js';
import { parseObjectBody } from './json-body.js';
import { createPlaceMemory, PLACE_COLUMNS, type PlaceRow } from './places.js';
import { invalidEventId, notFound } from './refusal.js';
import { createGroupCommit } from './sqlite-group-commit.js';
import { ANCHOR_STEP, createPageAnchors } from './sqlite-page-anchors.js';
import { applyUpdate, locationsSent } from './update-event.js';

const CREDENTIALS = 'k.organization_id, k.user_id, k.secret_hash, k.revoked_at IS NOT NULL, u.active';
const KEY_WITH_USER = 'api_keys k JOIN users u ON u.organization_id = k.organization_id AND u.id = k.user_id';

type CredentialsRow = [
  organizationId: string,
  userId: string,
  secretHash: string,
  revoked: number,
  active: number,
];

const credentialsOf = (row: CredentialsRow | undefined): Credentials | undefined =>
  row && {
    organizationId: row[0],
    userId: row[1],
    secretHash: row[2],
    revoked: row[3] === 1,
    userActive: row[4] === 1,
  };

export function createSqliteFloor(
  path: string,
  options: FloorOptions,
): { listener: RequestListener; close(): void } {
  const { limiter, observers, uuid } = options;
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -4000');
  db.pragma('busy_timeout = 5000');

  const groupCommit = createGroupCommit(db);
  const anchors = createPageAnchors(db);
  const places = createPlaceMemory();
  const touches = createTouchSchedule();

  // The key's row is read on every request: a revocation or a deactivated user counts at once.
  const selectCredentials = db
    .prepare(`SELECT ${CREDENTIALS} FROM ${KEY_WITH_USER} WHERE k.key_id = ?`)
    .raw();
  // A GET reads the key and the event in one statement, the document as its UTF-8 bytes.
  const selectCredentialsAndDocument = db
    .prepare(`
      SELECT ${CREDENTIALS}, CAST(e.document AS BLOB), e.etag FROM ${KEY_WITH_USER}
      LEFT JOIN events e ON e.organization_id = k.organization_id AND e.id = ?
      WHERE k.key_id = ?`)
    .raw();
  const selectTotal = db.prepare('SELECT event_count FROM organizations WHERE id = ?').pluck();
  const selectNewest = db
    .prepare(
      'SELECT summary FROM events WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
    )
    .pluck();
  const selectOldest = db
    .prepare('SELECT summary FROM events WHERE organization_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?')
    .pluck();
  const selectFromAnchor = db
    .prepare(`
      SELECT summary FROM events WHERE organization_id = ? AND (created_at, id) >= (?, ?)
      ORDER BY created_at, id LIMIT ? OFFSET ?`)
    .pluck();
  const selectEvent = db
    .prepare('SELECT document, etag FROM events WHERE organization_id = ? AND id = ?')
    .raw();
  const nextRevision = db
    .prepare(
      'SELECT COALESCE(MAX(revision), 0) + 1 FROM event_changes WHERE organization_id = ? AND event_id = ?',
    )
    .pluck();
  // An API update never moves the status: the status columns (and their index) are left alone.
  const updateEvent = db.prepare(
    'UPDATE events SET updated_at = ?, document = ?, etag = ?, summary = ? WHERE organization_id = ? AND id = ?',
  );
  const insertEvent = db.prepare(`
    INSERT INTO events (organization_id, id, created_by, created_at, updated_at, status, previous_status, document, etag, summary)
    VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`);
  const insertChange = db.prepare(`
    INSERT INTO event_changes (organization_id, sequence, id, event_id, revision, type, occurred_at, actor,
      changed_fields, diff, data, snapshot)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`);
  // D11: the creator and the approvers of every group the creator belongs to, each once.
  const grant = db.prepare(`
    INSERT INTO event_grants (organization_id, event_id, user_id)
    SELECT DISTINCT gm.organization_id, @event, gm.user_id
    FROM group_members gm
    JOIN users u ON u.organization_id = gm.organization_id AND u.id = gm.user_id AND u.active = 1
    WHERE gm.organization_id = @organization
      AND gm.group_id IN (SELECT group_id FROM group_members WHERE organization_id = @organization AND user_id = @creator)
      AND (gm.role = 'approver' OR gm.user_id = @creator)`);
  const touchKey = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE key_id = ?');
  const selectPlaces = db.prepare(
    `SELECT ${PLACE_COLUMNS} FROM places WHERE name_key = ? ORDER BY population DESC, id`,
  );

  function touch(principal: Principal) {
    const now = options.now();
    if (!touches.due(principal.keyId, now.getTime())) return;
    groupCommit.run(
      () => touchKey.run(now.toISOString(), principal.keyId),
      (error) => {
        if (error) touches.failed(principal.keyId);
      },
    );
  }

  function admitted(exchange: Exchange, credentials: Credentials | undefined, key = apiKeyOf(exchange)) {
    const principal = admit(exchange, limiter, key, credentials);
    touch(principal);
    return principal;
  }

  function getEvent(exchange: Exchange, id: string) {
    const key = apiKeyOf(exchange);
    const row =
      key.keyId === undefined
        ? undefined
        : (selectCredentialsAndDocument.get(id.toLowerCase(), key.keyId) as
            | [...CredentialsRow, Buffer | null, string | null]
            | undefined);
    admitted(exchange, credentialsOf(row as CredentialsRow | undefined), key);
    if (!isUuid(id)) throw invalidEventId();
    const document = row?.[5];
    if (!document) throw notFound(id);
    exchange.sendJson('/v1/events/:id', 200, document, { etag: row[6] ?? etagOf(document.toString()) });
  }

  function readPage(organizationId: string, offset: number, limit: number) {
    const total = (selectTotal.get(organizationId) as number | undefined) ?? 0;
    if (offset >= total) return { items: [] as string[], total };
    const olderThanPage = total - offset - limit;
    if (Math.min(offset, olderThanPage) >= ANCHOR_STEP) {
      const { from, skip } = anchors.seek(organizationId, total, olderThanPage);
      const items = selectFromAnchor.all(organizationId, from[0], from[1], limit, skip) as string[];
      return { items: items.reverse(), total };
    }
    if (olderThanPage >= offset)
      return { items: selectNewest.all(organizationId, limit, offset) as string[], total };
    const items = selectOldest.all(
      organizationId,
      Math.min(limit, total - offset),
      Math.max(olderThanPage, 0),
    );
    return { items: (items as string[]).reverse(), total };
  }

  /** The caller, from its key's row read now. */
  function principalOf(exchange: Exchange) {
    const key = apiKeyOf(exchange);
    const row =
      key.keyId === undefined ? undefined : (selectCredentials.get(key.keyId) as CredentialsRow | undefined);
    return admitted(exchange, credentialsOf(row), key);
  }

  // The key, the count and the page in one read transaction: the total and the page agree.
  const listEvents = db.transaction((exchange: Exchange, page: number, limit: number) => {
    const principal = principalOf(exchange);
    return readPage(principal.organizationId, (page - 1) * limit, limit);
  });

  function list(exchange: Exchange, page: number, limit: number) {
    const { items, total } = listEvents(exchange, page, limit);
    const body = `{"data":[${items.join(',')}],"page":${page},"limit":${limit},"total":${total}}`;
    exchange.sendJson('/v1/events', 200, Buffer.from(body));
  }

  /** The places of the locations a body sends, looked up now (remembered), in the body's order. */
  function resolve(locations: ReadonlyArray<Parameters<typeof places.missing>[0]>) {
    return locations.map((location) => {
      const nameKey = places.missing(location);
      if (nameKey !== undefined) places.learn(location, selectPlaces.all(nameKey) as PlaceRow[]);
      return places.answer(location);
    });
  }

  function patch(exchange: Exchange, id: string, text: string) {
    const principal = principalOf(exchange);
    if (!isUuid(id)) throw invalidEventId();
    const refusal = contentTypeRefusal(exchange.request, 'PATCH', text);
    if (refusal) throw refusal;
    const body = parseObjectBody(text);
    const eventId = id.toLowerCase();
    const sent = locationsSent(body);
    const resolved = sent && resolve(sent);
    const now = options.now().toISOString();
    groupCommit.run(
      (batch) => {
        const row = selectEvent.get(principal.organizationId, eventId) as [string, string | null] | undefined;
        if (!row) throw notFound(id);
        const current = JSON.parse(row[0]) as Details;
        const after = applyUpdate(current, body, { now, newId: uuid });
        // Nothing changed: the stored document is the answer.
        if (!after) return { document: row[0], etag: row[1] ?? etagOf(row[0]) };
        if (after.formattedLocations !== current.formattedLocations) settlePlaces(after, resolved ?? []);
        const write = updatedWrite(current, after, principal, uuid());
        const revision = nextRevision.get(principal.organizationId, eventId);
        updateEvent.run(now, write.document, write.etag, write.summary, principal.organizationId, eventId);
        insertChange.run(
          principal.organizationId,
          batch.nextSequence(principal.organizationId),
          write.change.id,
          eventId,
          revision,
          write.change.type,
          now,
          write.change.actor,
          write.change.changedFields,
          write.change.diff,
          write.document,
        );
        return { document: write.document, etag: write.etag };
      },
      (error, result) => {
        if (error || !result) exchange.refuse('/v1/events/:id', error);
        else exchange.sendJson('/v1/events/:id', 200, Buffer.from(result.document), { etag: result.etag });
      },
    );
  }

  function post(exchange: Exchange, text: string) {
    const principal = principalOf(exchange);
    const refusal = contentTypeRefusal(exchange.request, 'POST', text);
    if (refusal) throw refusal;
    const body = parseObjectBody(text);
    const now = options.now().toISOString();
    const details = buildNewEvent(body, { id: uuid(), now, newId: uuid });
    settlePlaces(details, resolve(details.formattedLocations));
    const write = createdWrite(details, principal, uuid());
    const { organizationId } = principal;
    groupCommit.run(
      (batch) => {
        insertEvent.run(
          organizationId,
          details.id,
          principal.userId,
          now,
          now,
          details.status,
          write.document,
          write.etag,
          write.summary,
        );
        insertChange.run(
          organizationId,
          batch.nextSequence(organizationId),
          write.change.id,
          details.id,
          1,
          write.change.type,
          now,
          write.change.actor,
          write.change.changedFields,
          write.change.diff,
          write.document,
        );
        batch.eventCreated(organizationId);
        anchors.inserted(organizationId, now, details.id);
        return grant.run({ organization: organizationId, event: details.id, creator: principal.userId })
          .changes;
      },
      (error, grantedTo) => {
        if (error !== undefined) exchange.refuse('/v1/events', error);
        else
          exchange.sendJson(
            '/v1/events',
            201,
            Buffer.from(`{"id":"${details.id}","grantedTo":${grantedTo}}`),
            {
              location: `/v1/events/${details.id}`,
            },
          );
      },
    );
  }

  const listener: RequestListener = (request, response) => {
    const exchange = new Exchange(request, response, observers);
    const route = routeOf(request);
    if (route.pattern === 'unmatched') {
      request.resume();
      exchange.refuse('unmatched', NOT_IMPLEMENTED);
      return;
    }
    if (route.method === 'GET') {
      try {
        if (route.pattern === '/v1/events/:id') getEvent(exchange, route.id);
        else list(exchange, route.page, route.limit);
      } catch (error) {
        exchange.refuse(route.pattern, error);
      }
      return;
    }
    readBody(request, (tooLarge, text) => {
      try {
        if (tooLarge) {
          principalOf(exchange);
          throw tooLarge;
        }
        if (route.method === 'PATCH') patch(exchange, route.id, text);
        else post(exchange, text);
      } catch (error) {
        exchange.refuse(route.pattern, error);
      }
    });
  };

  return {
    listener,
    close() {
      groupCommit.drain();
      db.close();
    },
  };
}
