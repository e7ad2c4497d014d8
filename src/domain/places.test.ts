import { describe, expect, it } from 'vitest';
import { chooseClearPlace, countryCodeOf, placeKey } from './places.js';

const place = (countryCode: string, adminCode: string, population: number) => ({
  countryCode,
  adminCode,
  population,
});

describe('place keys and countries', () => {
  it('matches names without case or accents', () => {
    expect(placeKey('  São   PAULO ')).toBe('sao paulo');
    expect(placeKey('Zürich')).toBe(placeKey('zurich'));
  });

  it('reads a country as an ISO code in any case or as an English name', () => {
    expect(countryCodeOf('PT')).toBe('PT');
    expect(countryCodeOf('pt')).toBe('PT');
    expect(countryCodeOf('Portugal')).toBe('PT');
    expect(countryCodeOf('united states')).toBe('US');
    expect(countryCodeOf('USA')).toBe('US');
    expect(countryCodeOf('Atlantis')).toBeUndefined();
  });

  it('reads a name as the current code, never a retired one that ICU names alike', () => {
    expect(countryCodeOf('France')).toBe('FR');
    expect(countryCodeOf('Russia')).toBe('RU');
    expect(countryCodeOf('United Kingdom')).toBe('GB');
    expect(countryCodeOf('Germany')).toBe('DE');
    expect(countryCodeOf('Vietnam')).toBe('VN');
    expect(countryCodeOf('Curaçao')).toBe('CW');
  });
});

describe('choosing the place a location clearly means', () => {
  const springfields = [place('US', 'MO', 166_810), place('US', 'MA', 155_929), place('US', 'IL', 116_250)];
  const parises = [place('FR', '11', 2_138_551), place('US', 'TX', 24_782), place('US', 'TN', 10_156)];

  it('takes a single match', () => {
    expect(chooseClearPlace([place('PT', '14', 517_802)], {})).toEqual(place('PT', '14', 517_802));
  });

  it('takes one place with ten times the people of every other', () => {
    expect(chooseClearPlace(parises, {})).toBe(parises[0]);
  });

  it('takes nothing when no place stands out (Springfield without a state)', () => {
    expect(chooseClearPlace(springfields, {})).toBeUndefined();
  });

  it('narrows by state, as a code or a US state name, and by country', () => {
    expect(chooseClearPlace(springfields, { state: 'Illinois' })).toBe(springfields[2]);
    expect(chooseClearPlace(springfields, { state: 'ma', country: 'USA' })).toBe(springfields[1]);
    expect(chooseClearPlace(parises, { state: 'Texas' })).toBe(parises[1]);
    expect(chooseClearPlace(parises, { country: 'United States' })).toBeUndefined();
  });

  it('takes nothing for an unknown country or a state that names no candidate', () => {
    expect(chooseClearPlace(parises, { country: 'Atlantis' })).toBeUndefined();
    expect(chooseClearPlace(parises, { state: 'Ontario' })).toBeUndefined();
    expect(chooseClearPlace([], {})).toBeUndefined();
  });
});
