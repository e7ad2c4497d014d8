/**
 * `/app/places?q=…`: city suggestions for the location rows of the event form (the gazetteer's prefix
 * search, most populous first), read by the form's one script. Not a page: it answers JSON, with each
 * place in words (`label`) and what choosing it fills in: the country by name, the state in the US.
 */
import { searchPlaces } from '../../app/places.js';
import { ROUTES } from '../href.js';
import { loader, type PageModule } from '../page-module.js';
import { countryName, suggestionWords } from '../place-words.js';

export const placeSuggestions: PageModule = [
  loader(ROUTES.placeSuggestions, async (page) => {
    const q = typeof page.query.q === 'string' ? page.query.q.slice(0, 100) : '';
    const reply = page.reply.header('cache-control', 'no-store');
    if (q.trim().length < 2) return reply.send({ data: [] });
    const { data } = await searchPlaces(page.deps, { q, limit: 8 });
    return reply.send({
      data: data.map((place) => ({
        city: place.name,
        label: suggestionWords(place),
        // US states are written as their codes (TX); elsewhere the region is left to the person.
        state: place.countryCode === 'US' ? place.adminCode : '',
        country: countryName(place.countryCode) ?? place.countryCode,
      })),
    });
  }),
];
