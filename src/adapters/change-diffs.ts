/**
 * How both stores keep a change's diff. A create's diff is one `add` per field of the details it
 * made (domain `createdDiff`), so it holds the whole document a second time next to the snapshot;
 * the stores keep it once: an `event.created` change is stored with an empty diff text, and its diff
 * is made again from its snapshot when read. Records are read back exactly as they were described
 * (D17); records stored before keep their diff text and are read as they are.
 */
import { createdDiff, type NewChange, type PatchOperation } from '../domain/changes.js';

/** The diff column of a change made from its snapshot; no JSON text is empty. */
const FROM_SNAPSHOT = '';

/** The diff column to store for a change; a create's diff is not even read (describeChange makes it on demand). */
export const storedDiff = (change: Pick<NewChange, 'type' | 'diff'>): string =>
  change.type === 'event.created' ? FROM_SNAPSHOT : JSON.stringify(change.diff);

/**
 * The SQL list of a change's diff columns (the same on SQLite and PostgreSQL): the stored text, and
 * the snapshot only where the diff is made from it.
 */
export const DIFF_COLUMNS = `diff, CASE WHEN diff = '${FROM_SNAPSHOT}' THEN snapshot END AS diff_snapshot`;

/** A change's diff from the columns DIFF_COLUMNS reads. */
export function diffFromColumns(row: { diff: string; diff_snapshot: string | null }): PatchOperation[] {
  if (row.diff !== FROM_SNAPSHOT) return JSON.parse(row.diff);
  if (row.diff_snapshot === null) throw new Error('a change stored without its diff has no snapshot');
  return createdDiff(JSON.parse(row.diff_snapshot));
}
