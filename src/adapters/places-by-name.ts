import type { Place } from '../ports/place-repository.js';

/** Distinct name keys remembered; client input chooses them, so the map is emptied when full. */
const MAX_NAME_KEYS = 4096;

/**
 * The answers of `named` remembered per name key: every create resolves its cities, and the
 * gazetteer changes only when replaceAll loads another version (at start), which forgets them all.
 * Callers get frozen arrays, so no caller can change what another one reads.
 */
export function rememberPlacesByName(lookUp: (nameKey: string) => Promise<Place[]>) {
  let answers = new Map<string, Promise<readonly Place[]>>();
  return {
    named(nameKey: string): Promise<Place[]> {
      let answer = answers.get(nameKey);
      if (!answer) {
        if (answers.size >= MAX_NAME_KEYS) answers = new Map();
        const kept = answers;
        answer = lookUp(nameKey).then((places) => Object.freeze(places.map((place) => Object.freeze(place))));
        answer.catch(() => kept.delete(nameKey));
        kept.set(nameKey, answer);
      }
      return answer as Promise<Place[]>;
    },
    forget(): void {
      answers = new Map();
    },
  };
}
