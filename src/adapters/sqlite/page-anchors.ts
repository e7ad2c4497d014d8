import type { Database } from 'better-sqlite3';

/** One anchor every this many events: a deep page then steps over fewer than this many index entries. */
export const ANCHOR_STEP = 1024;

/** An event's place in the list: its creation time, then its id. */
type ListKey = [createdAt: string, id: string];

interface Anchors {
  /** keys[k] is the key of the event k × ANCHOR_STEP places from the oldest end. */
  keys: ListKey[];
  /** The organization's event count these anchors describe. */
  total: number;
}

const isAfter = (a: ListKey, b: ListKey) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

/**
 * Deep pages without walking the index from an end. `OFFSET` steps over index entries one by one (the
 * middle page of 100,000 events: 50,000 entries, 2 ms), so every ANCHOR_STEP-th key, counted from the
 * oldest event, is remembered, and a page starts from the nearest anchor below it.
 *
 * Events are never deleted, and a new event is normally the newest, so counted from the oldest end the
 * anchors stay where they are. They are read again when another connection committed (`PRAGMA
 * data_version`), when this one inserted an event older than the last anchor, or when the count of
 * events is not the one expected.
 */
export function createPageAnchors(db: Database) {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const everyStepth = db
    .prepare(`
      SELECT created_at, id FROM (
        SELECT created_at, id, row_number() OVER (ORDER BY created_at, id) - 1 AS place
        FROM events WHERE organization_id = ?)
      WHERE place % ${ANCHOR_STEP} = 0 ORDER BY place`)
    .raw();
  const byOrganization = new Map<string, Anchors>();
  let seenVersion: unknown;

  return {
    /**
     * Where the events `fromOldest` places from the oldest end begin: the anchor key at or below them
     * and how many events after it to skip. Call inside the read transaction that also read `total`.
     */
    seek(organizationId: string, total: number, fromOldest: number) {
      const version = dataVersion.get();
      if (version !== seenVersion) {
        byOrganization.clear();
        seenVersion = version;
      }
      let anchors = byOrganization.get(organizationId);
      if (anchors?.total !== total) {
        anchors = { keys: everyStepth.all(organizationId) as ListKey[], total };
        byOrganization.set(organizationId, anchors);
      }
      const index = Math.floor(fromOldest / ANCHOR_STEP);
      return { from: anchors.keys[index]!, skip: fromOldest - index * ANCHOR_STEP };
    },
    /** Told of every event this connection inserts, inside the inserting transaction. */
    inserted(organizationId: string, key: ListKey) {
      const anchors = byOrganization.get(organizationId);
      if (!anchors) return;
      const last = anchors.keys[anchors.keys.length - 1];
      // A newest event moves no anchor; one slotted in earlier moves those after it.
      if (last === undefined || isAfter(key, last)) anchors.total++;
      else byOrganization.delete(organizationId);
    },
  };
}
