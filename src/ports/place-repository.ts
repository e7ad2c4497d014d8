/** The gazetteer in the store: cities that candidate locations resolve to, and the places search. */
export interface Place {
  /** GeoNames id. */
  id: number;
  name: string;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  /** GeoNames admin1 code: a US state's postal code, elsewhere usually digits. */
  adminCode: string;
  population: number;
  latitude: number;
  longitude: number;
  /** IANA time zone. */
  timeZone: string;
}

/** A place as loaded, with the key its name is matched by (see domain/places.ts `placeKey`). */
export interface PlaceRow extends Place {
  nameKey: string;
}

export interface PlaceRepository {
  /** Every place whose name key is exactly `nameKey`, most populous first. */
  named(nameKey: string): Promise<Place[]>;
  /** Places whose name key starts with `prefix` (optionally in one country), most populous first. */
  search(query: { prefix: string; countryCode?: string; limit: number }): Promise<Place[]>;
  /** The version of the gazetteer loaded, or undefined when none is. */
  loadedVersion(): Promise<string | undefined>;
  /**
   * Replaces every place with `rows` (read as they are written, so they need not all be in memory) and
   * records `version`, in one transaction; resolves to the number of rows. When `version` is already
   * loaded once the store's write lock is held, nothing changes and it resolves to 0: instances that
   * start together load a gazetteer once.
   */
  replaceAll(rows: Iterable<PlaceRow>, version: string): Promise<number>;
}
