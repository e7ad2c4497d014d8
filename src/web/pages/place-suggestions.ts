/**
 * `/app/places?q=…`: city suggestions for the location rows of the event form (the gazetteer's prefix
 * search, most populous first), read by the form's one script. Not a page: it answers JSON.
 */
import { searchPlaces } from '../../app/places.js';
import { ROUTES } from '../href.js';
import { loader, type PageModule } from '../page-module.js';

export const placeSuggestions: PageModule = [
  loader(ROUTES.placeSuggestions, async (page) => {
    const q = typeof page.query.q === 'string' ? page.query.q.slice(0, 100) : '';
    const reply = page.reply.header('cache-control', 'no-store');
    if (q.trim().length < 2) return reply.send({ data: [] });
    const { data } = await searchPlaces(page.deps, { q, limit: 8 });
    return reply.send({
      data: data.map((place) => ({ city: place.name, state: place.adminCode, country: place.countryCode })),
    });
  }),
];
