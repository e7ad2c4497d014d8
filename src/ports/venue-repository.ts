import type { Venue } from '../domain/venue.js';

/** A page of the directory (D20): venues not archived (or only archived ones) whose name or city contains `search`. */
export interface VenueQuery {
  /** True: the archived venues instead (the Venues page's "Show archived venues"). */
  archived?: boolean;
  /** Folded like venueSearchKey (lower case, no accents); empty matches every venue. */
  search: string;
  offset: number;
  limit: number;
}

/** The organization's directory of venues (D20); every method is scoped by the organization. */
export interface VenueRepository {
  insert(organizationId: string, venue: Venue): Promise<void>;
  /** The venue, archived or not; undefined outside the organization. */
  find(organizationId: string, id: string): Promise<Venue | undefined>;
  /**
   * Reads, changes and writes one venue atomically: `change` gets the venue as stored and returns the
   * venue to write, undefined for "nothing to write", or throws to abort with nothing written.
   * Resolves to the venue as stored afterwards, or undefined when the organization has no such venue.
   */
  update(
    organizationId: string,
    id: string,
    change: (current: Venue) => Venue | undefined,
  ): Promise<Venue | undefined>;
  /** Venues not archived (archived ones with `archived`), in name order (folded name, then id), with the total matching the query. */
  list(organizationId: string, query: VenueQuery): Promise<{ items: Venue[]; total: number }>;
}
