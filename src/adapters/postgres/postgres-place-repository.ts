import type { Pool } from 'pg';
import type { Place, PlaceRepository, PlaceRow } from '../../ports/place-repository.js';
import { rememberPlacesByName } from '../places-by-name.js';
import { inTransaction, query } from './postgres-transaction.js';

const COLUMNS = `id, name, country_code AS "countryCode", admin_code AS "adminCode", population, latitude, longitude,
  time_zone AS "timeZone"`;
/** Above every character a name key holds (keys compare byte-wise, COLLATE "C"). */
const AFTER_PREFIX = '\u{10FFFF}';
/** Rows per INSERT while loading: one statement of arrays per batch. */
const BATCH = 5000;

export function createPostgresPlaceRepository(pool: Pool): PlaceRepository {
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
    async loadedVersion() {
      const { rows } = await query<{ version: string }>(
        pool,
        "SELECT version FROM places_source WHERE name = 'gazetteer'",
      );
      return rows[0]?.version;
    },
    replaceAll(all: readonly PlaceRow[], version: string) {
      byName.forget();
      return inTransaction(pool, async (client) => {
        await query(client, 'SET LOCAL statement_timeout = 0');
        // Instances starting together load one after the other, never interleaved.
        await query(client, 'LOCK TABLE places IN EXCLUSIVE MODE');
        await query(client, 'DELETE FROM places');
        for (let start = 0; start < all.length; start += BATCH) {
          const rows = all.slice(start, start + BATCH);
          await query(
            client,
            `INSERT INTO places (id, name, name_key, country_code, admin_code, population, latitude, longitude, time_zone)
             SELECT * FROM unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[],
               $7::double precision[], $8::double precision[], $9::text[])`,
            [
              rows.map((row) => row.id),
              rows.map((row) => row.name),
              rows.map((row) => row.nameKey),
              rows.map((row) => row.countryCode),
              rows.map((row) => row.adminCode),
              rows.map((row) => row.population),
              rows.map((row) => row.latitude),
              rows.map((row) => row.longitude),
              rows.map((row) => row.timeZone),
            ],
          );
        }
        await query(
          client,
          `INSERT INTO places_source (name, version, loaded_at) VALUES ('gazetteer', $1, now())
           ON CONFLICT (name) DO UPDATE SET version = excluded.version, loaded_at = excluded.loaded_at`,
          [version],
        );
        await query(client, 'ANALYZE places');
        return all.length;
      }).finally(byName.forget);
    },
  };
}
