/**
 * CPU time per call of each piece of a PATCH and a POST outside the store (the bench's own events
 * and bodies, 20,000 calls each): `node --import tsx bench/pieces-micro.ts`.
 */
import { randomIds } from '../src/adapters/system.js';
import { describeChange } from '../src/app/change-log.js';
import { eventDocument } from '../src/app/etag.js';
import { withResolvedPlaces } from '../src/app/places.js';
import { buildNewEvent } from '../src/domain/create-event.js';
import { toListItem } from '../src/domain/derived.js';
import { applyUpdate } from '../src/domain/update-event.js';
import { parseJsonBody } from '../src/http/json-body.js';
import { createBody, patchBody, SESSIONS_PER_EVENT, uuidFor } from './workload.js';

const N = 20000;
const seeded = (index: number) => {
  let slot = 0;
  return () => (slot > SESSIONS_PER_EVENT ? randomIds.uuid() : uuidFor(index, slot++));
};
const now = '2026-11-24T05:00:00.000Z';
const events = Array.from({ length: 200 }, (_, index) => {
  const newId = seeded(index);
  return buildNewEvent(createBody(index), { id: newId(), now, newId });
});
const texts = events.map((e) => JSON.stringify(e));
const patchTexts = events.map((_, index) => JSON.stringify(patchBody(index, index * 7)));
const createTexts = events.map((_, index) => JSON.stringify(createBody(index + 500)));
const patches = patchTexts.map((t) => JSON.parse(t));
const updated = events.map((e, i) => applyUpdate(e, patches[i], { now, newId: randomIds.uuid }).details);
const actor = { type: 'api_key' as const, keyId: 'k', userId: 'u' };

function time(name: string, fn: (i: number) => unknown) {
  for (let i = 0; i < 2000; i++) fn(i % 200);
  const cpu = process.cpuUsage();
  for (let i = 0; i < N; i++) fn(i % 200);
  const used = process.cpuUsage(cpu);
  console.log(`${name.padEnd(28)} ${((used.user + used.system) / N).toFixed(2)} µs`);
}

time('parse stored document', (i) => JSON.parse(texts[i]!));
time('parseJsonBody (PATCH)', (i) => parseJsonBody(patchTexts[i]!));
time('parseJsonBody (POST)', (i) => parseJsonBody(createTexts[i]!));
time('applyUpdate', (i) => applyUpdate(events[i]!, patches[i], { now, newId: randomIds.uuid }));
time('describeChange (update)', (i) => describeChange({ ids: randomIds }, actor, events[i], updated[i]!));
time('describeChange (create)', (i) => describeChange({ ids: randomIds }, actor, undefined, events[i]!));
time('eventDocument', (i) => eventDocument(updated[i]!));
time('summary', (i) => JSON.stringify(toListItem(updated[i]!)));
time('diff JSON (update)', (i) =>
  JSON.stringify(describeChange({ ids: randomIds }, actor, events[i], updated[i]!).diff),
);
time('buildNewEvent', (i) => {
  const newId = randomIds.uuid;
  return buildNewEvent(JSON.parse(createTexts[i]!), { id: newId(), now, newId });
});
time('withResolvedPlaces', (i) => withResolvedPlaces(events[i]!, [undefined, undefined, undefined]));
time('uuid', () => randomIds.uuid());
time('diff JSON (create)', (i) =>
  JSON.stringify(describeChange({ ids: randomIds }, actor, undefined, events[i]!).diff),
);
time('JSON.parse (POST body)', (i) => JSON.parse(createTexts[i]!));
time('JSON.parse (PATCH body)', (i) => JSON.parse(patchTexts[i]!));
