import { describe, expect, it } from 'vitest';
import { countryName, locationWords, regionName, suggestionWords } from './place-words.js';

describe('places in words', () => {
  it('names a suggestion by city, region and country, never by codes', () => {
    expect(suggestionWords({ name: 'Lisbon', adminCode: '14', countryCode: 'PT' })).toBe(
      'Lisbon, Lisbon, Portugal',
    );
    expect(suggestionWords({ name: 'Austin', adminCode: 'TX', countryCode: 'US' })).toBe(
      'Austin, Texas, United States',
    );
    // A region the package does not name is left out rather than shown as its code.
    expect(suggestionWords({ name: 'Somewhere', adminCode: '99', countryCode: 'PT' })).toBe(
      'Somewhere, Portugal',
    );
  });

  it('knows region and country names from installed data', () => {
    expect(regionName('us', 'CA')).toBe('California');
    expect(regionName('PT', 'nope')).toBeUndefined();
    expect(countryName('gb')).toBe('United Kingdom');
    expect(countryName('??')).toBeUndefined();
  });

  it('spells a country one way, however it was typed or resolved', () => {
    for (const country of ['USA', 'US', 'us', 'United States', 'America']) {
      expect(locationWords({ city: 'Austin', state: 'TX', country })).toBe('Austin, TX, United States');
    }
    expect(locationWords({ city: 'Lisbon', country: 'pt', countryCode: 'PT' })).toBe('Lisbon, Portugal');
    expect(locationWords({ city: 'Leeds', country: 'UK' })).toBe('Leeds, United Kingdom');
    // A country the gazetteer cannot read stays as typed; no country, none shown.
    expect(locationWords({ city: 'Atlantis', country: 'Lost lands' })).toBe('Atlantis, Lost lands');
    expect(locationWords({ city: 'Bergen' })).toBe('Bergen');
  });
});
