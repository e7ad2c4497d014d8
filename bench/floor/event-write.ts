/**
 * What a write stores: the details as the document, its ETag and the list summary, and the change
 * record (D17) that describes it, as text ready for either store.
 */
import { hash } from 'node:crypto';
import type { Principal } from './access.js';
import { createdFields, describeUpdate } from './change-diff.js';
import { type Details, summaryOf } from './event-model.js';

export interface EventWrite {
  details: Details;
  document: string;
  etag: string;
  summary: string;
  change: {
    id: string;
    type: 'event.created' | 'event.updated';
    actor: string;
    changedFields: string;
    /** A create's diff is made again from its snapshot when read, so it is stored empty, as the service stores it. */
    diff: string;
  };
}

/** A strong ETag of the document as sent: 32 characters of its SHA-256, base64url. */
export const etagOf = (document: string) => `"${hash('sha256', document, 'base64url').slice(0, 32)}"`;

const actorOf = (principal: Principal) =>
  JSON.stringify({ type: 'api_key', keyId: principal.keyId, userId: principal.userId });

function written(details: Details, change: EventWrite['change']): EventWrite {
  const document = JSON.stringify(details);
  return { details, document, etag: etagOf(document), summary: summaryOf(details), change };
}

export const createdWrite = (details: Details, principal: Principal, changeId: string) =>
  written(details, {
    id: changeId,
    type: 'event.created',
    actor: actorOf(principal),
    changedFields: JSON.stringify(createdFields(details)),
    diff: '',
  });

export function updatedWrite(before: Details, after: Details, principal: Principal, changeId: string) {
  const { operations, changedFields } = describeUpdate(before, after);
  return written(after, {
    id: changeId,
    type: 'event.updated',
    actor: actorOf(principal),
    changedFields: JSON.stringify(changedFields),
    diff: JSON.stringify(operations),
  });
}
