/**
 * Standard Webhooks 1.0 signatures: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, keyed with
 * the base64 part of a `whsec_` secret. While a rotated-out secret is still valid both sign, and the
 * header lists both signatures separated by a space, so a receiver holding either secret verifies.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { EndpointSecrets } from '../domain/webhooks.js';

export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: above the 24 the standard asks for. */
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The secrets that sign at `now`: the current one, and the previous one until it expires. */
export function signingSecrets(secrets: EndpointSecrets, now: Date): string[] {
  const previousValid =
    secrets.previous !== null &&
    secrets.previousExpiresAt !== null &&
    Date.parse(secrets.previousExpiresAt) > now.getTime();
  return previousValid ? [secrets.current, secrets.previous!] : [secrets.current];
}

/** The `webhook-*` headers of one attempt. */
export function webhookHeaders(
  secrets: EndpointSecrets,
  id: string,
  body: string,
  now: Date,
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signingSecrets(secrets, now)
      .map((secret) => sign(secret, id, timestamp, body))
      .join(' '),
  };
}
