import { describe, expect, it } from 'vitest';
import type { Place } from '../ports/place-repository.js';
import type { AppDeps } from './deps.js';
import { resolvePlaces } from './places.js';

const place = (id: number, countryCode: string, adminCode: string, population: number): Place => ({
  id,
  name: 'Paris',
  countryCode,
  adminCode,
  population,
  latitude: 48.85,
  longitude: 2.35,
  timeZone: countryCode === 'FR' ? 'Europe/Paris' : 'America/Chicago',
});

/** A store that hands out one frozen array per name, as the SQLite and PostgreSQL stores do, until reloaded. */
function storeWith(candidates: Place[]) {
  let current = Object.freeze([...candidates]);
  let lookups = 0;
  const deps = {
    store: {
      places: {
        named: async () => {
          lookups++;
          return current;
        },
      },
    },
  } as unknown as Pick<AppDeps, 'store'>;
  return {
    deps,
    reload(next: Place[]) {
      current = Object.freeze([...next]);
    },
    lookups: () => lookups,
  };
}

describe('resolvePlaces', () => {
  it('names the same place for a location typed again, and another for another country or state', async () => {
    const store = storeWith([place(1, 'FR', '11', 2_100_000), place(2, 'US', 'TX', 25_000)]);
    const [first] = await resolvePlaces(store.deps, [{ city: 'Paris', country: 'France' }]);
    const [again, texas, nowhere] = await resolvePlaces(store.deps, [
      { city: 'paris', country: 'France' },
      { city: 'Paris', state: 'TX', country: 'US' },
      { city: 'Paris', country: 'Narnia' },
    ]);
    expect(first?.place_id).toBe('geonames:1');
    expect(again).toEqual(first);
    expect(texas?.place_id).toBe('geonames:2');
    expect(nowhere).toBeUndefined();
    expect(Object.isFrozen(first)).toBe(true);
    expect(store.lookups()).toBe(4);
  });

  it('judges a location again once the store hands out other candidates (a gazetteer reloaded)', async () => {
    const store = storeWith([place(1, 'FR', '11', 2_100_000)]);
    const [before] = await resolvePlaces(store.deps, [{ city: 'Paris', country: 'FR' }]);
    store.reload([place(3, 'FR', '11', 2_200_000)]);
    const [after] = await resolvePlaces(store.deps, [{ city: 'Paris', country: 'FR' }]);
    expect(before?.place_id).toBe('geonames:1');
    expect(after?.place_id).toBe('geonames:3');
  });
});
