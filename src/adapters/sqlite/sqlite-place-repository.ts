import type { Database } from 'better-sqlite3';
import type { Place, PlaceRepository, PlaceRow } from '../../ports/place-repository.js';
import { rememberPlacesByName } from '../places-by-name.js';

const COLUMNS = `id, name, country_code AS countryCode, admin_code AS adminCode, population, latitude, longitude,
  time_zone AS timeZone`;
/** Above every character a name key holds, so [prefix, prefix + this) is every key starting with prefix. */
const AFTER_PREFIX = '\u{10FFFF}';
/** How long a load waits for another process's load of the same file to commit. */
const LOAD_LOCK_WAIT_MS = 120_000;

export function createSqlitePlaceRepository(db: Database): PlaceRepository {
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
  const insert = db.prepare(
    `INSERT INTO places (id, name, name_key, country_code, admin_code, population, latitude, longitude, time_zone)
     VALUES (@id, @name, @nameKey, @countryCode, @adminCode, @population, @latitude, @longitude, @timeZone)`,
  );
  const recordVersion = db.prepare(
    `INSERT INTO places_source (name, version, loaded_at) VALUES ('gazetteer', ?, ?)
     ON CONFLICT (name) DO UPDATE SET version = excluded.version, loaded_at = excluded.loaded_at`,
  );
  const load = db.transaction((rows: Iterable<PlaceRow>, loaded: string) => {
    // Checked again under the write lock: another process may have loaded it while this one waited.
    if (version.get() === loaded) return 0;
    db.prepare('DELETE FROM places').run();
    let count = 0;
    for (const row of rows) {
      insert.run(row);
      count++;
    }
    recordVersion.run(loaded, new Date().toISOString());
    return count;
  });
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
    async replaceAll(rows: Iterable<PlaceRow>, loaded: string) {
      byName.forget();
      // One transaction of its own, outside the write queue (nothing else writes while it runs: it is
      // synchronous). Another process starting on this file may hold the write lock for its own first
      // load: that wait is not a slow write, so it may take longer than the usual busy timeout.
      const busyTimeoutMs = db.pragma('busy_timeout', { simple: true }) as number;
      db.pragma(`busy_timeout = ${LOAD_LOCK_WAIT_MS}`);
      try {
        return load.immediate(rows, loaded);
      } finally {
        db.pragma(`busy_timeout = ${busyTimeoutMs}`);
        byName.forget();
      }
    },
  };
}
