/** How both stores read a row of `request_versions` (D26): the actor, the changes and the snapshot as JSON. */
import type { StoredRequestVersion } from '../domain/request-versions.js';

export interface VersionRow {
  version: number;
  /** Text on SQLite, a Date on PostgreSQL. */
  sent_at: string | Date;
  sent_by: string;
  message: string | null;
  changes: string;
  snapshot: string;
}

/** What refuses a version when the one before it is no longer the latest: it was sent meanwhile. */
export const VERSION_SENT_MEANWHILE =
  'These changes were just sent to the venues (by a second click, or by someone else): nothing more to send.';

export function toVersion(row: VersionRow): StoredRequestVersion {
  return {
    version: row.version,
    sentAt: row.sent_at instanceof Date ? row.sent_at.toISOString() : row.sent_at,
    sentBy: JSON.parse(row.sent_by),
    message: row.message,
    changes: JSON.parse(row.changes),
    snapshot: JSON.parse(row.snapshot),
  };
}
