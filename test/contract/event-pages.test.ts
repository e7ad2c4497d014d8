/** Paging through a long event list: every page, from either end, is the same slice of one order. */
import { beforeAll, expect, it } from 'vitest';
import { toListItem } from '../../src/domain/derived.js';
import type { StoredEvent } from '../../src/domain/types.js';
import { BACKENDS, describeStore } from './backends.js';
import { insertEvent, newEvent, newOrganization, newUser, nextTime } from './fixtures.js';

for (const backend of BACKENDS) {
  describeStore(backend, 'event pages', (store) => {
    let organization: string;
    let newestFirst: string[];

    beforeAll(async () => {
      organization = await newOrganization(store());
      const creator = await newUser(store(), organization);
      const events: StoredEvent[] = [];
      // 23 events, with runs of equal creation times, so pages cut through ties broken by id.
      for (let index = 0; index < 23; index++) {
        const createdAt = index % 4 === 0 ? nextTime() : (events[index - 1]?.details.createdAt ?? nextTime());
        events.push(newEvent(organization, creator, { name: `Event ${index}` }, createdAt));
      }
      await Promise.all(events.map((event) => insertEvent(store(), event)));
      newestFirst = [...events]
        .sort(
          (a, b) =>
            b.details.createdAt.localeCompare(a.details.createdAt) || (a.details.id < b.details.id ? 1 : -1),
        )
        .map((event) => JSON.stringify(toListItem(event.details)));
    });

    it('returns every page of every size as the matching slice of the newest-first order', async () => {
      for (const limit of [1, 2, 5, 7, 10, 22, 23, 30]) {
        for (let offset = 0; offset <= 24; offset++) {
          const page = await store().events.list(organization, { offset, limit });
          expect({ offset, limit, ...page }).toEqual({
            offset,
            limit,
            items: newestFirst.slice(offset, offset + limit),
            total: 23,
          });
        }
      }
    });

    it('returns the last, partial page in newest-first order', async () => {
      const page = await store().events.list(organization, { offset: 20, limit: 5 });
      expect(page.items).toEqual(newestFirst.slice(20));
      expect(page.items).toHaveLength(3);
    });
  });
}
