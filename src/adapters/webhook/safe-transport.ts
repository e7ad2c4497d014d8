/**
 * Sends webhook attempts with undici under the network policy of D18. The policy is enforced where
 * the connection is made: the agent's `lookup` resolves the name, refuses the connection when any
 * address it resolved to is not public, and hands the checked addresses straight to the socket, so a
 * name that resolves to a public address when the endpoint is saved and to a private one later (DNS
 * rebinding) is refused on that connection. IP literals never reach `lookup`; they are checked before
 * the request starts. No redirect is followed, and time and the response body read are bounded.
 */

import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as systemLookup } from 'node:dns/promises';
import type { Agent } from 'undici';
import type { AttemptOutcome } from '../../domain/webhooks.js';
import type { WebhookRequest, WebhookTransport } from '../../ports/webhook-transport.js';
import { addressRefusal, urlRefusal } from './address-policy.js';

/** Resolves a host name to its addresses; tests pass their own so no DNS query leaves the machine. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (hostname) => systemLookup(hostname, { all: true, verbatim: true });

export interface SafeTransportOptions {
  timeoutMs: number;
  /** `WEBHOOK_ALLOW_PRIVATE_NETWORKS=1`: any address, and http too (local development and tests). */
  allowPrivateNetworks: boolean;
  /** How much of a response body is read and kept. */
  responseBodyLimit: number;
  resolver?: Resolver;
}

class RefusedAddressError extends Error {
  readonly code = 'EWEBHOOKREFUSED';
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for net/tls sockets that resolves through `resolver` and refuses non-public addresses. */
export function guardedLookup(resolver: Resolver, allowPrivateNetworks: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    resolver(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = addresses.filter((entry) => wanted === undefined || entry.family === wanted);
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
          return;
        }
        if (!allowPrivateNetworks) {
          for (const entry of usable) {
            const refusal = addressRefusal(entry.address);
            if (refusal) {
              callback(new RefusedAddressError(`${hostname} resolves to ${refusal}`), '');
              return;
            }
          }
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

export function createSafeTransport(options: SafeTransportOptions): WebhookTransport {
  const lookup = guardedLookup(options.resolver ?? systemResolver, options.allowPrivateNetworks);
  // The HTTP client is loaded with the first attempt: a server whose organizations have no webhook
  // endpoint does not hold its few MB of heap.
  let client: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  const loadClient = () => {
    client ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({
        connect: { lookup: lookup as never, timeout: options.timeoutMs },
        // One attempt per request: a connection is not kept for another tenant's endpoint on the same host.
        pipelining: 0,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      }),
      request,
    }));
    return client;
  };

  return {
    urlProblem: (url) => urlRefusal(url, options.allowPrivateNetworks),

    async send(attempt: WebhookRequest): Promise<AttemptOutcome> {
      // Literal addresses never reach `lookup`: the URL's own check refuses them before any socket.
      const refusal = urlRefusal(attempt.url, options.allowPrivateNetworks);
      if (refusal) return { kind: 'error', error: `refused: the URL ${refusal}` };
      const signal = AbortSignal.timeout(options.timeoutMs);
      try {
        const { agent, request } = await loadClient();
        const response = await request(attempt.url, {
          dispatcher: agent,
          method: 'POST',
          headers: { 'content-type': 'application/json', ...attempt.headers },
          body: attempt.body,
          // undici follows no redirect unless told to: a 3xx is an answer like any other (a failure).
          signal,
        });
        const body = await readBounded(response.body, options.responseBodyLimit);
        return { kind: 'response', statusCode: response.statusCode, body };
      } catch (error) {
        return { kind: 'error', error: describe(error, signal) };
      }
    },

    close: async () => {
      if (client) await (await client).agent.close();
    },
  };
}

/** Reads at most `limit` bytes of a body, then stops reading (and drops the rest). */
async function readBounded(
  body: AsyncIterable<Buffer> & { destroy(): void },
  limit: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const room = limit - size;
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    size += Math.min(chunk.length, room);
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  // A multi-byte character cut at the limit becomes U+FFFD rather than invalid text.
  return Buffer.concat(chunks).toString('utf8');
}

function describe(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout: no complete answer within WEBHOOK_TIMEOUT_MS';
  let current = error as { code?: string; message?: string; cause?: unknown } | undefined;
  // undici wraps the socket's error; the refusal may sit a level or two down.
  for (let depth = 0; current && depth < 4; depth++) {
    if (current instanceof RefusedAddressError) return `refused: ${current.message}`;
    if (current.cause === undefined) break;
    current = current.cause as typeof current;
  }
  const top = error as { code?: string; message?: string };
  return `${top.code ?? 'error'}: ${top.message ?? String(error)}`.slice(0, 500);
}
