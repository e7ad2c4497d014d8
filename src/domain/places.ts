/**
 * Which gazetteer place a candidate location names, if one is clearly meant. Pure: the candidates
 * come from the store, through the app layer.
 */

/** One place is clearly meant over others when it has at least this many times the people of the next. */
export const FAR_MORE_POPULOUS = 10;

/** Lower case, accents and other combining marks removed, runs of spaces as one: "São Paulo" → "sao paulo". */
export function placeKey(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

const COUNTRY_ALIASES: Record<string, string> = {
  usa: 'US',
  'united states of america': 'US',
  america: 'US',
  uk: 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  holland: 'NL',
  'czech republic': 'CZ',
  russia: 'RU',
  'south korea': 'KR',
  korea: 'KR',
};

interface Countries {
  byName: Map<string, string>;
  codes: Set<string>;
}
let countries: Countries | undefined;

/**
 * Codes ISO 3166 no longer gives a country (deprecated or reserved), which ICU still names: each shares
 * its name with a current code (FX "France" beside FR, SU "Russia" beside RU, UK beside GB) and would
 * otherwise take the name from it.
 */
const RETIRED_CODES = new Set([
  'AN',
  'BU',
  'CS',
  'DD',
  'DY',
  'FX',
  'HV',
  'NH',
  'RH',
  'SU',
  'TP',
  'UK',
  'VD',
  'YD',
  'YU',
  'ZR',
]);

/** Country names in English, as the runtime's ICU data spells them, keyed by placeKey; and the codes. */
function knownCountries(): Countries {
  if (countries) return countries;
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const byName = new Map<string, string>(Object.entries(COUNTRY_ALIASES));
  const codes = new Set<string>();
  for (let first = 65; first <= 90; first++) {
    for (let second = 65; second <= 90; second++) {
      const code = String.fromCharCode(first, second);
      const name = names.of(code);
      if (!name || name === code || code === 'ZZ' || RETIRED_CODES.has(code)) continue;
      codes.add(code);
      byName.set(placeKey(name), code);
    }
  }
  countries = { byName, codes };
  return countries;
}

/** The ISO 3166-1 alpha-2 code a country is written as: a code in any case, or an English name. */
export function countryCodeOf(country: string): string | undefined {
  const key = placeKey(country);
  const { byName, codes } = knownCountries();
  const upper = key.toUpperCase();
  return byName.get(key) ?? (codes.has(upper) ? upper : undefined);
}

const US_STATES: Record<string, string> = {
  alabama: 'AL',
  alaska: 'AK',
  arizona: 'AZ',
  arkansas: 'AR',
  california: 'CA',
  colorado: 'CO',
  connecticut: 'CT',
  delaware: 'DE',
  'district of columbia': 'DC',
  florida: 'FL',
  georgia: 'GA',
  hawaii: 'HI',
  idaho: 'ID',
  illinois: 'IL',
  indiana: 'IN',
  iowa: 'IA',
  kansas: 'KS',
  kentucky: 'KY',
  louisiana: 'LA',
  maine: 'ME',
  maryland: 'MD',
  massachusetts: 'MA',
  michigan: 'MI',
  minnesota: 'MN',
  mississippi: 'MS',
  missouri: 'MO',
  montana: 'MT',
  nebraska: 'NE',
  nevada: 'NV',
  'new hampshire': 'NH',
  'new jersey': 'NJ',
  'new mexico': 'NM',
  'new york': 'NY',
  'north carolina': 'NC',
  'north dakota': 'ND',
  ohio: 'OH',
  oklahoma: 'OK',
  oregon: 'OR',
  pennsylvania: 'PA',
  'rhode island': 'RI',
  'south carolina': 'SC',
  'south dakota': 'SD',
  tennessee: 'TN',
  texas: 'TX',
  utah: 'UT',
  vermont: 'VT',
  virginia: 'VA',
  washington: 'WA',
  'west virginia': 'WV',
  wisconsin: 'WI',
  wyoming: 'WY',
};

/** Whether a typed state names a place's admin1 region: its code ("TX", "14"), or a US state's name. */
function stateMatches(state: string, place: { countryCode: string; adminCode: string }): boolean {
  const key = placeKey(state);
  if (key === place.adminCode.toLowerCase()) return true;
  return place.countryCode === 'US' && US_STATES[key] === place.adminCode;
}

export interface PlaceCandidate {
  countryCode: string;
  adminCode: string;
  population: number;
}

/**
 * The one place a location clearly means among the places of its city's name, or undefined. The
 * country (a name or a code) and the state narrow the candidates; a country or state that names
 * nothing known leaves nothing. Then one candidate is meant when it is the only one, or when it has
 * at least FAR_MORE_POPULOUS times the people of every other (Paris, France over Paris, Texas; not
 * Springfield, Missouri over Springfield, Illinois).
 */
export function chooseClearPlace<P extends PlaceCandidate>(
  candidates: readonly P[],
  location: { state?: string; country?: string },
): P | undefined {
  let matching = candidates;
  const country = location.country?.trim() ? location.country : undefined;
  const state = location.state?.trim() ? location.state : undefined;
  if (country !== undefined) {
    const code = countryCodeOf(country);
    if (code === undefined) return undefined;
    matching = matching.filter((place) => place.countryCode === code);
  }
  if (state !== undefined) matching = matching.filter((place) => stateMatches(state, place));
  if (matching.length === 0) return undefined;
  const [first, ...others] = [...matching].sort((a, b) => b.population - a.population);
  if (others.length === 0) return first;
  const second = others[0]!;
  return first!.population >= FAR_MORE_POPULOUS * Math.max(second.population, 1) ? first : undefined;
}
