/** The place repository contract (the gazetteer in the store), run on every backend. */
import { beforeAll, expect, it } from 'vitest';
import { ensurePlaces } from '../../src/app/places.js';
import { SAMPLE_PLACES } from '../helpers/places.js';
import { BACKENDS, describeStore } from './backends.js';

for (const backend of BACKENDS) {
  describeStore(backend, 'place repository', (store) => {
    beforeAll(async () => {
      await store().places.replaceAll(SAMPLE_PLACES, 'sample@1');
    });

    it('finds every place of one name key, most populous first', async () => {
      const found = await store().places.named('springfield');
      expect(found.map((place) => place.adminCode)).toEqual(['MO', 'MA', 'IL']);
      expect(found[0]).toEqual({
        id: 4409896,
        name: 'Springfield',
        countryCode: 'US',
        adminCode: 'MO',
        population: 166_810,
        latitude: 37.21533,
        longitude: -93.29824,
        timeZone: 'America/Chicago',
      });
      await expect(store().places.named('atlantis')).resolves.toEqual([]);
    });

    it('searches by prefix, most populous first, in one country when asked, up to the limit', async () => {
      const all = await store().places.search({ prefix: 'l', limit: 10 });
      expect(all.map((place) => `${place.name}/${place.countryCode}`)).toEqual([
        'Lagos/NG',
        'Lisbon/PT',
        'Lagos/PT',
        'Lisbon/US',
      ]);
      const inPortugal = await store().places.search({ prefix: 'lis', countryCode: 'PT', limit: 10 });
      expect(inPortugal.map((place) => place.id)).toEqual([2267057]);
      expect(await store().places.search({ prefix: 'sao', limit: 1 })).toHaveLength(1);
      expect(await store().places.search({ prefix: 'l', limit: 2 })).toHaveLength(2);
    });

    it('replaces every place with a new version and loads again only when the version differs', async () => {
      await expect(store().places.loadedVersion()).resolves.toBe('sample@1');
      const gazetteer = { version: () => 'sample@2', read: () => SAMPLE_PLACES.slice(0, 2) };
      await expect(ensurePlaces({ store: store() }, gazetteer)).resolves.toBe(2);
      await expect(ensurePlaces({ store: store() }, gazetteer)).resolves.toBe(0);
      await expect(store().places.loadedVersion()).resolves.toBe('sample@2');
      expect(await store().places.search({ prefix: '', limit: 50 })).toHaveLength(2);
      await store().places.replaceAll(SAMPLE_PLACES, 'sample@1');
    });

    it('answers a name it answered before from the places loaded since, not from the earlier ones', async () => {
      expect(await store().places.named('paris')).toHaveLength(2);
      const onlyTexas = SAMPLE_PLACES.filter((place) => place.id !== 2988507);
      await store().places.replaceAll(onlyTexas, 'sample@3');
      expect((await store().places.named('paris')).map((place) => place.adminCode)).toEqual(['TX']);
      await store().places.replaceAll(SAMPLE_PLACES, 'sample@1');
      expect(await store().places.named('paris')).toHaveLength(2);
    });

    it('gives every caller of a name the same places, which no caller can change', async () => {
      const first = await store().places.named('lisbon');
      expect(() => (first as unknown as { population: number }[])[0]!.population++).toThrow(TypeError);
      expect(() => first.pop()).toThrow(TypeError);
      expect(await store().places.named('lisbon')).toEqual(first);
    });
  });
}
