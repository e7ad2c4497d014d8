/** The venue directory (D20) on every backend: scoped by organization, in name order, searched by name or city. */
import { beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/domain/errors.js';
import { archiveVenue } from '../../src/domain/venue.js';
import { BACKENDS, describeStore } from './backends.js';
import { newOrganization, newVenue, nextTime } from './fixtures.js';

for (const backend of BACKENDS) {
  describeStore(backend, 'venue repository', (store) => {
    let org: string;

    beforeAll(async () => {
      org = await newOrganization(store());
    });

    it('stores a venue and reads it back exactly, only within its organization', async () => {
      const venue = { ...newVenue({ notes: 'Line one\nline two', guestRooms: 120 }), place_id: 'geonames:1' };
      await store().venues.insert(org, venue);
      expect(await store().venues.find(org, venue.id)).toEqual(venue);
      const other = await newOrganization(store());
      expect(await store().venues.find(other, venue.id)).toBeUndefined();
      expect((await store().venues.list(other, { search: '', offset: 0, limit: 10 })).total).toBe(0);
    });

    it('refuses a second venue with the same id in the organization', async () => {
      const venue = newVenue();
      await store().venues.insert(org, venue);
      await expect(store().venues.insert(org, venue)).rejects.toBeInstanceOf(Error);
    });

    describe('listing', () => {
      let listed: string;
      const names = ['Zenith Hall', 'ábaco Palace', 'Harbour Inn', 'abbey Rooms'];

      beforeAll(async () => {
        listed = await newOrganization(store());
        for (const name of names) {
          await store().venues.insert(
            listed,
            newVenue({ name, city: name === 'Harbour Inn' ? 'Porto' : 'Faro' }),
          );
        }
        const archived = newVenue({ name: 'Archived Abbey' });
        await store().venues.insert(listed, archiveVenue(archived, nextTime()));
      });

      const list = (search: string, offset = 0, limit = 10) =>
        store().venues.list(listed, { search, offset, limit });

      it('lists the venues not archived in name order, folding case and accents', async () => {
        const { items, total } = await list('');
        expect(total).toBe(4);
        expect(items.map((venue) => venue.name)).toEqual([
          'ábaco Palace',
          'abbey Rooms',
          'Harbour Inn',
          'Zenith Hall',
        ]);
      });

      it('pages through the list with the total of every match', async () => {
        const page = await list('', 1, 2);
        expect(page.total).toBe(4);
        expect(page.items.map((venue) => venue.name)).toEqual(['abbey Rooms', 'Harbour Inn']);
        expect(await list('', 10, 2)).toEqual({ items: [], total: 4 });
      });

      it('matches the search in the name or the city, folded, anywhere in the text', async () => {
        expect((await list('porto')).items.map((venue) => venue.name)).toEqual(['Harbour Inn']);
        expect((await list('aba')).items.map((venue) => venue.name)).toEqual(['ábaco Palace']);
        expect((await list('faro')).total).toBe(3);
        // Matched as typed: % and _ are no wildcards.
        expect((await list('%')).total).toBe(0);
        expect((await list('a_')).total).toBe(0);
      });

      it('lists the archived venues alone when asked, searched the same way', async () => {
        const archived = (search: string) =>
          store().venues.list(listed, { search, offset: 0, limit: 10, archived: true });
        const all = await archived('');
        expect(all.total).toBe(1);
        expect(all.items.map((venue) => venue.name)).toEqual(['Archived Abbey']);
        expect((await archived('abbey')).total).toBe(1);
        expect((await archived('zenith')).total).toBe(0);
      });
    });

    describe('updating', () => {
      it('writes what the change returns and nothing when it returns nothing or throws', async () => {
        const venue = newVenue();
        await store().venues.insert(org, venue);
        const renamed = { ...venue, name: 'Renamed', updatedAt: nextTime() };
        expect(await store().venues.update(org, venue.id, () => renamed)).toEqual(renamed);
        expect(await store().venues.update(org, venue.id, () => undefined)).toEqual(renamed);
        const refusal = new ConflictError('no');
        await expect(
          store().venues.update(org, venue.id, () => {
            throw refusal;
          }),
        ).rejects.toBe(refusal);
        expect(await store().venues.find(org, venue.id)).toEqual(renamed);
      });

      it('answers undefined for a venue of another organization, changing nothing', async () => {
        const venue = newVenue();
        await store().venues.insert(org, venue);
        const other = await newOrganization(store());
        expect(await store().venues.update(other, venue.id, (current) => ({ ...current, name: 'X' }))).toBe(
          undefined,
        );
        expect((await store().venues.find(org, venue.id))?.name).toBe(venue.name);
      });

      it('applies concurrent changes one after the other', async () => {
        const venue = newVenue({ guestRooms: 0 });
        await store().venues.insert(org, venue);
        await Promise.all(
          Array.from({ length: 10 }, () =>
            store().venues.update(org, venue.id, (current) => ({
              ...current,
              guestRooms: (current.guestRooms ?? 0) + 1,
            })),
          ),
        );
        expect((await store().venues.find(org, venue.id))?.guestRooms).toBe(10);
      });

      it('takes an archived venue out of the list, and keeps it readable', async () => {
        const listed = await newOrganization(store());
        const venue = newVenue();
        await store().venues.insert(listed, venue);
        await store().venues.update(listed, venue.id, (current) => archiveVenue(current, nextTime()));
        expect((await store().venues.list(listed, { search: '', offset: 0, limit: 10 })).total).toBe(0);
        expect((await store().venues.find(listed, venue.id))?.archivedAt).not.toBeNull();
      });
    });
  });
}
