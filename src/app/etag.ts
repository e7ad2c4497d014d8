/**
 * Entity tags of events (RFC 9110 §8.8.3) and the two comparisons that use them. One definition: the
 * ETag of an event is derived from its full details document, so any change of the event changes it,
 * and GET and the PATCH that produced a state send the same value.
 */
import { hash } from 'node:crypto';
import type { EventDetails } from '../domain/types.js';
import type { EventBody, EventDocument } from '../ports/event-repository.js';

/**
 * A strong ETag of the details document exactly as sent (ready-to-send JSON text). The one-shot hash
 * gives the same tag as a Hash object at half the cost (3 instead of 6 µs for a 3.8 KB document).
 */
export const etagOf = (document: string | Buffer): string =>
  `"${hash('sha256', document, 'base64url').slice(0, 32)}"`;

/** The document a write stores: the details' JSON text and its tag, made once. */
export function eventDocument(details: EventDetails): EventDocument & { etag: string } {
  const text = JSON.stringify(details);
  return { text, etag: etagOf(text) };
}

/** The tag of a stored document: the one stored with it (every write since migration 5 stores one). */
export const storedEtag = (document: EventDocument | EventBody): string =>
  document.etag ?? etagOf('text' in document ? document.text : document.body);

interface EntityTag {
  weak: boolean;
  /** The quoted opaque tag, quotes included. */
  tag: string;
}

const ENTITY_TAG = /(W\/)?("[^"]*")/g;

/** `*`, or the entity tags listed in an If-Match / If-None-Match value. */
function parse(header: string): '*' | EntityTag[] {
  if (header.trim() === '*') return '*';
  return [...header.matchAll(ENTITY_TAG)].map((match) => ({ weak: match[1] !== undefined, tag: match[2]! }));
}

/** If-Match: strong comparison, so a weak tag never matches; `*` matches any existing event. */
export function ifMatchAllows(header: string, etag: string): boolean {
  const tags = parse(header);
  return tags === '*' || tags.some((candidate) => !candidate.weak && candidate.tag === etag);
}

/** If-None-Match: weak comparison (`W/"x"` matches `"x"`); `*` matches any existing event. */
export function ifNoneMatchHits(header: string, etag: string): boolean {
  const tags = parse(header);
  return tags === '*' || tags.some((candidate) => candidate.tag === etag.replace(/^W\//, ''));
}
