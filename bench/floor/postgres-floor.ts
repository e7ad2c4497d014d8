/**
 * The floor on PostgreSQL: pg's pool, set up as the service's (10 connections, the same time limits),
 * on the service's own database, every statement prepared once per connection. A GET is one round trip (the key and
 * the event); a list page two (the key, then the count and the page); a write reads the key and then
 * commits in one statement: an update only if the row is still the version it read (else it reads
 * again, and after three lost races waits for the row's lock), a create with its grants.
 */
import type { RequestListener } from 'node:http';
import pg from 'pg';
import { admit, apiKeyOf, type Credentials, createTouchSchedule, type Principal } from './access.js';
import { isUuid } from './checks.js';
import { buildNewEvent } from './create-event.js';
import { type ResolvedPlace, settlePlaces } from './derived.js';
import type { Details, Location } from './event-model.js';
import { createdWrite, type EventWrite, etagOf, updatedWrite } from './event-write.js';
import { contentTypeRefusal, Exchange, NOT_IMPLEMENTED, readBody, routeOf } from './exchange.js';
import type { FloorOptions } from './floor-options.js';
import { parseObjectBody } from './json-body.js';
import { createPlaceMemory, PLACE_COLUMNS, type PlaceRow } from './places.js';
import { invalidEventId, notFound } from './refusal.js';
import { applyUpdate, locationsSent } from './update-event.js';

const CREDENTIALS = 'k.organization_id, k.user_id, k.secret_hash, k.revoked_at IS NOT NULL, u.active';
const KEY_WITH_USER = 'api_keys k JOIN users u ON u.organization_id = k.organization_id AND u.id = k.user_id';

type CredentialsRow = [
  organizationId: string,
  userId: string,
  secretHash: string,
  revoked: boolean,
  active: boolean,
];

const credentialsOf = (row: CredentialsRow | undefined): Credentials | undefined =>
  row && { organizationId: row[0], userId: row[1], secretHash: row[2], revoked: row[3], userActive: row[4] };

const statement = (name: string, text: string) => ({
  name: `floor-${name}`,
  text,
  rowMode: 'array' as const,
});

const CREDENTIALS_BY_KEY = statement(
  'credentials',
  `SELECT ${CREDENTIALS} FROM ${KEY_WITH_USER} WHERE k.key_id = $1`,
);
const CREDENTIALS_AND_DOCUMENT = statement(
  'credentials-and-document',
  `SELECT ${CREDENTIALS}, e.document, e.etag FROM ${KEY_WITH_USER}
   LEFT JOIN events e ON e.organization_id = k.organization_id AND e.id = $2
   WHERE k.key_id = $1`,
);
// The count and the page in one statement, so from one snapshot.
const PAGE = statement(
  'page',
  `SELECT o.event_count, page.summary FROM organizations o
   LEFT JOIN LATERAL (
     SELECT e.summary FROM events e WHERE e.organization_id = o.id
     ORDER BY e.created_at DESC, e.id DESC LIMIT $2 OFFSET $3
   ) page ON true
   WHERE o.id = $1`,
);
const EVENT = statement(
  'event',
  'SELECT document, etag, xmin::text FROM events WHERE organization_id = $1 AND id = $2',
);
const EVENT_LOCKED = statement(
  'event-locked',
  'SELECT document, etag, xmin::text FROM events WHERE organization_id = $1 AND id = $2 FOR UPDATE',
);
/**
 * The row (if still version $9), the organization's numbering (D17: taken under its row lock, held
 * only to this statement's commit) and the change record. An API update never moves the status.
 */
const UPDATE_AND_RECORD = statement(
  'update',
  `WITH updated AS (
     UPDATE events SET updated_at = $5, document = $6, summary = $7, etag = $8
     WHERE organization_id = $1 AND id = $3 AND xmin = $9::text::xid
     RETURNING 1
   ), numbered AS (
     UPDATE organizations SET change_sequence = change_sequence + 1
     WHERE id = $1 AND EXISTS (SELECT 1 FROM updated) RETURNING change_sequence
   )
   INSERT INTO event_changes (organization_id, sequence, id, event_id, revision, type, occurred_at, actor,
     changed_fields, diff, data, snapshot)
   SELECT $1, numbered.change_sequence, $2, $3,
     COALESCE((SELECT MAX(revision) FROM event_changes WHERE organization_id = $1 AND event_id = $3), 0) + 1,
     'event.updated', $5, $4, $10, $11, NULL, $6
   FROM numbered`,
);
/** The event, its grants (D11), the organization's numbering and count, and the change record. */
const INSERT_AND_RECORD = statement(
  'insert',
  `WITH inserted AS (
     INSERT INTO events (organization_id, id, created_by, created_at, updated_at, status, previous_status,
       document, summary, etag)
     VALUES ($1, $2, $3, $4, $4, $5, NULL, $6, $7, $8)
   ), granted AS (
     INSERT INTO event_grants (organization_id, event_id, user_id)
     SELECT DISTINCT gm.organization_id, $2, gm.user_id
     FROM group_members gm
     JOIN users u ON u.organization_id = gm.organization_id AND u.id = gm.user_id AND u.active
     WHERE gm.organization_id = $1
       AND gm.group_id IN (SELECT group_id FROM group_members WHERE organization_id = $1 AND user_id = $3)
       AND (gm.role = 'approver' OR gm.user_id = $3)
     RETURNING 1
   ), numbered AS (
     UPDATE organizations SET change_sequence = change_sequence + 1, event_count = event_count + 1
     WHERE id = $1 RETURNING change_sequence
   )
   INSERT INTO event_changes (organization_id, sequence, id, event_id, revision, type, occurred_at, actor,
     changed_fields, diff, data, snapshot)
   SELECT $1, numbered.change_sequence, $9, $2, 1, 'event.created', $4, $10, $11, '', NULL, $6
   FROM numbered
   RETURNING (SELECT COUNT(*) FROM granted)::int`,
);
const PLACES = statement(
  'places',
  `SELECT ${PLACE_COLUMNS} FROM places WHERE name_key = $1 ORDER BY population DESC, id`,
);
const TOUCH_KEY = statement('touch', 'UPDATE api_keys SET last_used_at = $1 WHERE key_id = $2');

/** Optimistic attempts at an update before it waits for the row's lock instead. */
const OPTIMISTIC_ATTEMPTS = 3;

type Queryable = pg.Pool | pg.PoolClient;
const rowsOf = async <R>(db: Queryable, query: ReturnType<typeof statement>, values: unknown[]) =>
  (await db.query({ ...query, values })).rows as R[];

export function createPostgresFloor(
  url: string,
  options: FloorOptions,
): { listener: RequestListener; close(): Promise<void> } {
  const { limiter, observers, uuid } = options;
  // The service's pool settings (src/adapters/postgres/postgres-store.ts), its time limits included.
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    query_timeout: 5200,
    statement_timeout: 5000,
    idleTimeoutMillis: 30_000,
    application_name: 'eventplan-floor',
  });
  pool.on('error', () => undefined);
  const places = createPlaceMemory();
  const touches = createTouchSchedule();

  function touch(principal: Principal) {
    const now = options.now();
    if (!touches.due(principal.keyId, now.getTime())) return;
    pool
      .query({ ...TOUCH_KEY, values: [now.toISOString(), principal.keyId] })
      .catch(() => touches.failed(principal.keyId));
  }

  async function principalOf(exchange: Exchange) {
    const key = apiKeyOf(exchange);
    const [row] =
      key.keyId === undefined ? [] : await rowsOf<CredentialsRow>(pool, CREDENTIALS_BY_KEY, [key.keyId]);
    const principal = admit(exchange, limiter, key, credentialsOf(row));
    touch(principal);
    return principal;
  }

  async function getEvent(exchange: Exchange, id: string) {
    const key = apiKeyOf(exchange);
    const [row] =
      key.keyId === undefined
        ? []
        : await rowsOf<[...CredentialsRow, string | null, string | null]>(pool, CREDENTIALS_AND_DOCUMENT, [
            key.keyId,
            id.toLowerCase(),
          ]);
    const principal = admit(exchange, limiter, key, credentialsOf(row as CredentialsRow | undefined));
    touch(principal);
    if (!isUuid(id)) throw invalidEventId();
    const document = row?.[5];
    if (document === null || document === undefined) throw notFound(id);
    exchange.sendJson('/v1/events/:id', 200, Buffer.from(document), { etag: row![6] ?? etagOf(document) });
  }

  async function list(exchange: Exchange, page: number, limit: number) {
    const principal = await principalOf(exchange);
    const rows = await rowsOf<[number, string | null]>(pool, PAGE, [
      principal.organizationId,
      limit,
      (page - 1) * limit,
    ]);
    const items: string[] = [];
    for (const row of rows) if (row[1] !== null) items.push(row[1]);
    const body = `{"data":[${items.join(',')}],"page":${page},"limit":${limit},"total":${rows[0]?.[0] ?? 0}}`;
    exchange.sendJson('/v1/events', 200, Buffer.from(body));
  }

  async function resolve(locations: ReadonlyArray<Pick<Location, 'city' | 'state' | 'country'>>) {
    const resolved: Array<ResolvedPlace | undefined> = [];
    for (const location of locations) {
      const nameKey = places.missing(location);
      if (nameKey !== undefined) places.learn(location, await rowsOfPlaces(nameKey));
      resolved.push(places.answer(location));
    }
    return resolved;
  }

  async function rowsOfPlaces(nameKey: string): Promise<PlaceRow[]> {
    return (await pool.query({ name: PLACES.name, text: PLACES.text, values: [nameKey] })).rows as PlaceRow[];
  }

  /** Reads the event, applies the update and writes it if the row is still the version read. */
  async function tryUpdate(
    db: Queryable,
    locked: boolean,
    principal: Principal,
    eventId: string,
    id: string,
    body: Record<string, unknown>,
    resolved: Array<ResolvedPlace | undefined> | undefined,
    now: string,
  ): Promise<{ document: string; etag: string } | undefined> {
    const [row] = await rowsOf<[string, string | null, string]>(db, locked ? EVENT_LOCKED : EVENT, [
      principal.organizationId,
      eventId,
    ]);
    if (!row) throw notFound(id);
    const current = JSON.parse(row[0]) as Details;
    const after = applyUpdate(current, body, { now, newId: uuid });
    if (!after) return { document: row[0], etag: row[1] ?? etagOf(row[0]) };
    if (after.formattedLocations !== current.formattedLocations) settlePlaces(after, resolved ?? []);
    const write: EventWrite = updatedWrite(current, after, principal, uuid());
    const written = await db.query({
      ...UPDATE_AND_RECORD,
      values: [
        principal.organizationId,
        write.change.id,
        eventId,
        write.change.actor,
        now,
        write.document,
        write.summary,
        write.etag,
        row[2],
        write.change.changedFields,
        write.change.diff,
      ],
    });
    return written.rowCount === 1 ? { document: write.document, etag: write.etag } : undefined;
  }

  async function patch(exchange: Exchange, id: string, text: string) {
    const principal = await principalOf(exchange);
    if (!isUuid(id)) throw invalidEventId();
    const refusal = contentTypeRefusal(exchange.request, 'PATCH', text);
    if (refusal) throw refusal;
    const body = parseObjectBody(text);
    const eventId = id.toLowerCase();
    const sent = locationsSent(body);
    const resolved = sent && (await resolve(sent));
    const now = options.now().toISOString();
    let result: { document: string; etag: string } | undefined;
    for (let attempt = 0; attempt < OPTIMISTIC_ATTEMPTS && !result; attempt++)
      result = await tryUpdate(pool, false, principal, eventId, id, body, resolved, now);
    if (!result) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        result = await tryUpdate(client, true, principal, eventId, id, body, resolved, now);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
      if (!result) throw new Error(`event ${eventId} changed while its row was locked`);
    }
    exchange.sendJson('/v1/events/:id', 200, Buffer.from(result.document), { etag: result.etag });
  }

  async function post(exchange: Exchange, text: string) {
    const principal = await principalOf(exchange);
    const refusal = contentTypeRefusal(exchange.request, 'POST', text);
    if (refusal) throw refusal;
    const body = parseObjectBody(text);
    const now = options.now().toISOString();
    const details = buildNewEvent(body, { id: uuid(), now, newId: uuid });
    settlePlaces(details, await resolve(details.formattedLocations));
    const write = createdWrite(details, principal, uuid());
    const [row] = await rowsOf<[number]>(pool, INSERT_AND_RECORD, [
      principal.organizationId,
      details.id,
      principal.userId,
      now,
      details.status,
      write.document,
      write.summary,
      write.etag,
      write.change.id,
      write.change.actor,
      write.change.changedFields,
    ]);
    exchange.sendJson('/v1/events', 201, Buffer.from(`{"id":"${details.id}","grantedTo":${row?.[0] ?? 0}}`), {
      location: `/v1/events/${details.id}`,
    });
  }

  const listener: RequestListener = (request, response) => {
    const exchange = new Exchange(request, response, observers);
    const route = routeOf(request);
    const fail = (error: unknown) => exchange.refuse(route.pattern, error);
    if (route.pattern === 'unmatched') {
      request.resume();
      exchange.refuse('unmatched', NOT_IMPLEMENTED);
      return;
    }
    if (route.method === 'GET') {
      const answered =
        route.pattern === '/v1/events/:id'
          ? getEvent(exchange, route.id)
          : list(exchange, route.page, route.limit);
      answered.catch(fail);
      return;
    }
    readBody(request, (tooLarge, text) => {
      const answered = tooLarge
        ? principalOf(exchange).then(() => {
            throw tooLarge;
          })
        : route.method === 'PATCH'
          ? patch(exchange, route.id, text)
          : post(exchange, text);
      answered.catch(fail);
    });
  };

  return { listener, close: () => pool.end() };
}
