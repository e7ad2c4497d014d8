import type { Pool, PoolClient } from 'pg';
import type { Place, PlaceRepository, PlaceRow } from '../../ports/place-repository.js';
import { rememberPlacesByName } from '../places-by-name.js';
import { inTransaction, query } from './postgres-transaction.js';

const COLUMNS = `id, name, country_code AS "countryCode", admin_code AS "adminCode", population, latitude, longitude,
  time_zone AS "timeZone"`;
/** Above every character a name key holds (keys compare byte-wise, COLLATE "C"). */
const AFTER_PREFIX = '\u{10FFFF}';
/** Rows per INSERT while loading: one statement of arrays per batch. */
const BATCH = 5000;

async function loadedVersion(db: Pool | PoolClient): Promise<string | undefined> {
  const { rows } = await query<{ version: string }>(
    db,
    "SELECT version FROM places_source WHERE name = 'gazetteer'",
  );
  return rows[0]?.version;
}

/** The rows in arrays of up to `size`, read as they are needed. */
function* batches<T>(rows: Iterable<T>, size: number): Generator<T[], void, undefined> {
  let batch: T[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * `pool` serves requests; `unlimited` (connections without the statement and read timeouts) loads the
 * gazetteer, which may have to wait for another instance's load.
 */
export function createPostgresPlaceRepository(pool: Pool, unlimited: Pool): PlaceRepository {
  const byName = rememberPlacesByName(async (nameKey) => {
    const { rows } = await query<Place>(
      pool,
      `SELECT ${COLUMNS} FROM places WHERE name_key = $1 ORDER BY population DESC, id`,
      [nameKey],
    );
    return rows;
  });
  return {
    named: byName.named,
    async search({ prefix, countryCode, limit }) {
      const end = prefix + AFTER_PREFIX;
      const { rows } =
        countryCode === undefined
          ? await query<Place>(
              pool,
              `SELECT ${COLUMNS} FROM places WHERE name_key >= $1 AND name_key < $2
               ORDER BY population DESC, id LIMIT $3`,
              [prefix, end, limit],
            )
          : await query<Place>(
              pool,
              `SELECT ${COLUMNS} FROM places WHERE country_code = $1 AND name_key >= $2 AND name_key < $3
               ORDER BY population DESC, id LIMIT $4`,
              [countryCode, prefix, end, limit],
            );
      return rows;
    },
    loadedVersion: () => loadedVersion(pool),
    replaceAll(rows: Iterable<PlaceRow>, version: string) {
      byName.forget();
      return inTransaction(unlimited, async (client) => {
        // Waiting for another instance's first load is not a slow statement: neither the statement
        // timeout nor server defaults of the role or database may cut it.
        await query(client, 'SET LOCAL statement_timeout = 0');
        await query(client, 'SET LOCAL lock_timeout = 0');
        // Instances starting together load one after the other, never interleaved; each checks again
        // once it holds the lock, so only the first one loads.
        await query(client, 'LOCK TABLE places IN EXCLUSIVE MODE');
        if ((await loadedVersion(client)) === version) return 0;
        await query(client, 'DELETE FROM places');
        let count = 0;
        for (const batch of batches(rows, BATCH)) {
          await query(
            client,
            `INSERT INTO places (id, name, name_key, country_code, admin_code, population, latitude, longitude, time_zone)
             SELECT * FROM unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[],
               $7::double precision[], $8::double precision[], $9::text[])`,
            [
              batch.map((row) => row.id),
              batch.map((row) => row.name),
              batch.map((row) => row.nameKey),
              batch.map((row) => row.countryCode),
              batch.map((row) => row.adminCode),
              batch.map((row) => row.population),
              batch.map((row) => row.latitude),
              batch.map((row) => row.longitude),
              batch.map((row) => row.timeZone),
            ],
          );
          count += batch.length;
        }
        await query(
          client,
          `INSERT INTO places_source (name, version, loaded_at) VALUES ('gazetteer', $1, now())
           ON CONFLICT (name) DO UPDATE SET version = excluded.version, loaded_at = excluded.loaded_at`,
          [version],
        );
        await query(client, 'ANALYZE places');
        return count;
      }).finally(byName.forget);
    },
  };
}
