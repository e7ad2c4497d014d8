import type { Database } from 'better-sqlite3';
import type { Place, PlaceRepository, PlaceRow } from '../../ports/place-repository.js';
import { rememberPlacesByName } from '../places-by-name.js';
import type { WriteQueue } from './write-queue.js';

const COLUMNS = `id, name, country_code AS countryCode, admin_code AS adminCode, population, latitude, longitude,
  time_zone AS timeZone`;
/** Above every character a name key holds, so [prefix, prefix + this) is every key starting with prefix. */
const AFTER_PREFIX = '\u{10FFFF}';

export function createSqlitePlaceRepository(db: Database, queue: WriteQueue): PlaceRepository {
  const named = db.prepare(`SELECT ${COLUMNS} FROM places WHERE name_key = ? ORDER BY population DESC, id`);
  // The inner query reads only the index (name key, population, id); whole rows are read for the few kept.
  const search = db.prepare(
    `SELECT ${COLUMNS} FROM places WHERE id IN (
       SELECT id FROM places WHERE name_key >= ? AND name_key < ? ORDER BY population DESC, id LIMIT ?)
     ORDER BY population DESC, id`,
  );
  const searchInCountry = db.prepare(
    `SELECT ${COLUMNS} FROM places WHERE id IN (
       SELECT id FROM places WHERE country_code = ? AND name_key >= ? AND name_key < ?
       ORDER BY population DESC, id LIMIT ?)
     ORDER BY population DESC, id`,
  );
  const version = db.prepare("SELECT version FROM places_source WHERE name = 'gazetteer'").pluck();
  const byName = rememberPlacesByName(async (nameKey) => named.all(nameKey) as Place[]);
  return {
    named: byName.named,
    async search({ prefix, countryCode, limit }) {
      const end = prefix + AFTER_PREFIX;
      return (
        countryCode === undefined
          ? search.all(prefix, end, limit)
          : searchInCountry.all(countryCode, prefix, end, limit)
      ) as Place[];
    },
    async loadedVersion() {
      return version.get() as string | undefined;
    },
    replaceAll(rows: readonly PlaceRow[], loaded: string) {
      byName.forget();
      return queue
        .run(() => {
          db.prepare('DELETE FROM places').run();
          const insert = db.prepare(
            `INSERT INTO places (id, name, name_key, country_code, admin_code, population, latitude, longitude, time_zone)
           VALUES (@id, @name, @nameKey, @countryCode, @adminCode, @population, @latitude, @longitude, @timeZone)`,
          );
          for (const row of rows) insert.run(row);
          db.prepare(
            `INSERT INTO places_source (name, version, loaded_at) VALUES ('gazetteer', ?, ?)
           ON CONFLICT (name) DO UPDATE SET version = excluded.version, loaded_at = excluded.loaded_at`,
          ).run(loaded, new Date().toISOString());
          return rows.length;
        })
        .finally(byName.forget);
    },
  };
}
