import type { Database } from 'better-sqlite3';
import { type Venue, venueSearchKey } from '../../domain/venue.js';
import type { VenueRepository } from '../../ports/venue-repository.js';
import type { WriteQueue } from './write-queue.js';

export function venueRow(organizationId: string, venue: Venue) {
  return {
    organization_id: organizationId,
    id: venue.id,
    name_key: venueSearchKey(venue.name),
    city_key: venueSearchKey(venue.city),
    archived_at: venue.archivedAt,
    document: JSON.stringify(venue),
    created_at: venue.createdAt,
    updated_at: venue.updatedAt,
  };
}

export function createSqliteVenueRepository(db: Database, queue: WriteQueue): VenueRepository {
  const insert = db.prepare(`
    INSERT INTO venues (organization_id, id, name_key, city_key, archived_at, document, created_at, updated_at)
    VALUES (@organization_id, @id, @name_key, @city_key, @archived_at, @document, @created_at, @updated_at)`);
  const replace = db.prepare(`
    UPDATE venues SET name_key = @name_key, city_key = @city_key, archived_at = @archived_at,
      document = @document, updated_at = @updated_at
    WHERE organization_id = @organization_id AND id = @id`);
  const select = db.prepare('SELECT document FROM venues WHERE organization_id = ? AND id = ?').pluck();
  // instr, not LIKE: the text is matched as typed, % and _ included.
  const matching = (archived: boolean) => `FROM venues WHERE organization_id = @organizationId
    AND archived_at IS ${archived ? 'NOT NULL' : 'NULL'}
    AND (@search = '' OR instr(name_key, @search) > 0 OR instr(city_key, @search) > 0)`;
  const statements = (archived: boolean) => ({
    count: db.prepare(`SELECT COUNT(*) ${matching(archived)}`).pluck(),
    page: db
      .prepare(`SELECT document ${matching(archived)} ORDER BY name_key, id LIMIT @limit OFFSET @offset`)
      .pluck(),
  });
  const listed = { active: statements(false), archived: statements(true) };
  // The total and the page from one snapshot.
  const readPage = db.transaction((archived: boolean, query: Record<string, unknown>) => {
    const { count, page } = archived ? listed.archived : listed.active;
    return {
      total: count.get(query) as number,
      items: (page.all(query) as string[]).map((document) => JSON.parse(document) as Venue),
    };
  });

  return {
    async insert(organizationId, venue) {
      await queue.run(() => insert.run(venueRow(organizationId, venue)));
    },
    async find(organizationId, id) {
      const document = select.get(organizationId, id) as string | undefined;
      return document === undefined ? undefined : JSON.parse(document);
    },
    update(organizationId, id, change) {
      return queue.run(() => {
        const document = select.get(organizationId, id) as string | undefined;
        if (document === undefined) return undefined;
        const current = JSON.parse(document) as Venue;
        const next = change(current);
        if (!next) return current;
        replace.run(venueRow(organizationId, next));
        return next;
      });
    },
    async list(organizationId, { search, offset, limit, archived = false }) {
      return readPage(archived, { organizationId, search, offset, limit });
    },
  };
}
