/**
 * Deep list pages on SQLite without stepping through the index from an end: the key (created_at, id)
 * of every 1,024th event counted from the oldest is remembered per organization, and a page far from
 * both ends starts at the nearest anchor below it. Events are never deleted and a new one is normally
 * the newest, so counted from the oldest the anchors stay put. They are read again when another
 * connection committed (`PRAGMA data_version`), when this one inserted an event older than the last
 * anchor, or when the organization's event count is not the one they describe.
 */
import type { Database } from 'better-sqlite3';

export const ANCHOR_STEP = 1024;

type ListKey = [createdAt: string, id: string];

export function createPageAnchors(db: Database) {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const everyStep = db
    .prepare(`
      SELECT created_at, id FROM (
        SELECT created_at, id, row_number() OVER (ORDER BY created_at, id) - 1 AS place
        FROM events WHERE organization_id = ?)
      WHERE place % ${ANCHOR_STEP} = 0 ORDER BY place`)
    .raw();
  const byOrganization = new Map<string, { keys: ListKey[]; total: number }>();
  let seenVersion: unknown;

  return {
    /** Where the events `fromOldest` places from the oldest begin; call in the read that read `total`. */
    seek(organizationId: string, total: number, fromOldest: number) {
      const version = dataVersion.get();
      if (version !== seenVersion) {
        byOrganization.clear();
        seenVersion = version;
      }
      let anchors = byOrganization.get(organizationId);
      if (anchors?.total !== total) {
        anchors = { keys: everyStep.all(organizationId) as ListKey[], total };
        byOrganization.set(organizationId, anchors);
      }
      const index = Math.floor(fromOldest / ANCHOR_STEP);
      return { from: anchors.keys[index]!, skip: fromOldest - index * ANCHOR_STEP };
    },
    /** Told of every event this connection inserts. */
    inserted(organizationId: string, createdAt: string, id: string) {
      const anchors = byOrganization.get(organizationId);
      if (!anchors) return;
      const last = anchors.keys[anchors.keys.length - 1];
      const newest = last === undefined || createdAt > last[0] || (createdAt === last[0] && id > last[1]);
      if (newest) anchors.total++;
      else byOrganization.delete(organizationId);
    },
  };
}
