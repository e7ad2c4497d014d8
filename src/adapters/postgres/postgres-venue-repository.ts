import type { Pool } from 'pg';
import { type Venue, venueSearchKey } from '../../domain/venue.js';
import type { VenueRepository } from '../../ports/venue-repository.js';
import { inTransaction, query } from './postgres-transaction.js';

/** The venue's columns, $1–$8 in INSERT order. */
function venueValues(organizationId: string, venue: Venue): unknown[] {
  return [
    organizationId,
    venue.id,
    venueSearchKey(venue.name),
    venueSearchKey(venue.city),
    venue.archivedAt,
    JSON.stringify(venue),
    venue.createdAt,
    venue.updatedAt,
  ];
}

export const INSERT_VENUE = `
  INSERT INTO venues (organization_id, id, name_key, city_key, archived_at, document, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

export function createPostgresVenueRepository(pool: Pool): VenueRepository {
  return {
    async insert(organizationId, venue) {
      await query(pool, INSERT_VENUE, venueValues(organizationId, venue));
    },
    async find(organizationId, id) {
      const { rows } = await query<{ document: string }>(
        pool,
        'SELECT document FROM venues WHERE organization_id = $1 AND id = $2',
        [organizationId, id],
      );
      return rows[0] ? JSON.parse(rows[0].document) : undefined;
    },
    update(organizationId, id, change) {
      return inTransaction(pool, async (client) => {
        const { rows } = await query<{ document: string }>(
          client,
          'SELECT document FROM venues WHERE organization_id = $1 AND id = $2 FOR UPDATE',
          [organizationId, id],
        );
        if (!rows[0]) return undefined;
        const current = JSON.parse(rows[0].document) as Venue;
        const next = change(current);
        if (!next) return current;
        const [, , nameKey, cityKey, archivedAt, document, , updatedAt] = venueValues(organizationId, next);
        await query(
          client,
          `UPDATE venues SET name_key = $3, city_key = $4, archived_at = $5, document = $6, updated_at = $7
           WHERE organization_id = $1 AND id = $2`,
          [organizationId, id, nameKey, cityKey, archivedAt, document, updatedAt],
        );
        return next;
      });
    },
    async list(organizationId, { search, offset, limit, archived = false }) {
      // strpos, not LIKE: the text is matched as typed, % and _ included. The total and the page in one statement.
      const where = `organization_id = $1 AND archived_at IS ${archived ? 'NOT NULL' : 'NULL'}
        AND ($2 = '' OR strpos(name_key, $2) > 0 OR strpos(city_key, $2) > 0)`;
      const { rows } = await query<{ total: string; document: string | null }>(
        pool,
        `SELECT counted.total, page.document
         FROM (SELECT COUNT(*) AS total FROM venues WHERE ${where}) counted
         LEFT JOIN LATERAL (
           SELECT document, name_key, id FROM venues WHERE ${where} ORDER BY name_key, id LIMIT $3 OFFSET $4
         ) page ON true
         ORDER BY page.name_key, page.id`,
        [organizationId, search, limit, offset],
      );
      const total = Number(rows[0]?.total ?? 0);
      const items = rows.flatMap((row) => (row.document === null ? [] : [JSON.parse(row.document) as Venue]));
      return { items, total };
    },
  };
}
