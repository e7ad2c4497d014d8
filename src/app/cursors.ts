/**
 * Cursors of the cursor-paged lists (D17): opaque to clients, tamper-evident, and accepted by every
 * instance without configuration. A cursor is `<payload>.<mac>`: the payload (base64url JSON) holds
 * the position in the list; the mac is HMAC-SHA256 over the organization, the list it belongs to and
 * the payload, keyed by a secret the store shares between instances (first writer wins). A cursor of
 * another organization or another list, or one changed by a single character, fails the check.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Problem } from '../domain/errors.js';
import type { Store } from '../ports/store.js';
import type { AppDeps } from './deps.js';

/** Names the cursor key in the store's server secrets. */
const CURSOR_KEY = 'cursor-hmac-key';
const VERSION = 1;
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{43}$/;

/** One key per store, fetched (or created) on first use and then kept. */
const keys = new WeakMap<Store, Promise<string>>();

function cursorKey(deps: AppDeps): Promise<string> {
  let key = keys.get(deps.store);
  if (!key) {
    key = deps.store.secrets.ensure(CURSOR_KEY, deps.ids.token(64));
    // A failed read (the database down) is tried again by the next request.
    key.catch(() => keys.delete(deps.store));
    keys.set(deps.store, key);
  }
  return key;
}

/** Which list a cursor belongs to: the organization plus the list (`changes`, `revisions:<eventId>`). */
export interface CursorScope {
  organizationId: string;
  list: string;
}

function mac(key: string, scope: CursorScope, payload: string): Buffer {
  return createHmac('sha256', key)
    .update(`eventplan-cursor\n${scope.organizationId}\n${scope.list}\n${payload}`)
    .digest();
}

export async function encodeCursor(deps: AppDeps, scope: CursorScope, position: number): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ v: VERSION, p: position })).toString('base64url');
  return `${payload}.${mac(await cursorKey(deps), scope, payload).toString('base64url')}`;
}

/** The position a cursor names, or the problem to report for `field` when it is not a cursor of this list. */
export async function decodeCursor(
  deps: AppDeps,
  scope: CursorScope,
  cursor: unknown,
  field: string,
): Promise<{ position: number } | { problem: Problem }> {
  const refused = {
    problem: {
      field,
      code: 'invalid_cursor',
      message:
        'is not a cursor of this list: pass `nextCursor` unchanged, with the same API organization and the same list it came from',
    },
  };
  if (typeof cursor !== 'string' || !CURSOR_PATTERN.test(cursor)) return refused;
  const [payload, signature] = cursor.split('.') as [string, string];
  // Compared as text, not as decoded bytes: the last of 43 base64url characters carries two unused
  // bits, so two spellings decode to the same MAC, and a changed character must still be refused.
  const expected = Buffer.from(mac(await cursorKey(deps), scope, payload).toString('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return refused;
  try {
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      v?: unknown;
      p?: unknown;
    };
    if (decoded.v === VERSION && Number.isSafeInteger(decoded.p) && (decoded.p as number) >= 0) {
      return { position: decoded.p as number };
    }
  } catch {
    // Signed by us, so never malformed; refused all the same.
  }
  return refused;
}
