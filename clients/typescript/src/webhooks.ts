/**
 * Verifying eventplan's webhook deliveries (Standard Webhooks 1.0): `webhook-signature` holds one or
 * more space-separated `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the base64
 * part of the endpoint's `whsec_` secret. Two signatures arrive during a secret rotation; either may match.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './schema.js';

export type WebhookPayload = components['schemas']['WebhookPayload'];

/** Headers as `fetch` gives them (`Headers`) or as Node's `IncomingMessage.headers` does. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way (default 300 s, as Standard Webhooks). */
  toleranceSeconds?: number;
  /** The time to compare against (default: now); for tests and replays. */
  now?: Date;
}

export type WebhookVerificationCode =
  | 'invalid_secret'
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_out_of_tolerance'
  | 'invalid_signature'
  | 'invalid_payload';

/** A delivery that must not be trusted; `code` says why. Answer it with a 4xx and do nothing else. */
export class WebhookVerificationError extends Error {
  readonly code: WebhookVerificationCode;

  constructor(code: WebhookVerificationCode, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.code = code;
  }
}

const SECRET_PREFIX = 'whsec_';
const SIGNATURE_BYTES = 32;

/**
 * Checks a delivery's signature and timestamp, then returns its parsed body. Pass the raw body, exactly
 * as received (a string or the bytes), never a re-serialized object: any change breaks the signature.
 * Throws a `WebhookVerificationError` when the delivery is not authentic or is stale.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): WebhookPayload {
  const key = secretKey(secret);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError(
      'missing_headers',
      'webhook-id, webhook-timestamp and webhook-signature are all required',
    );
  }

  if (!/^[0-9]+$/.test(timestamp)) {
    throw new WebhookVerificationError(
      'invalid_timestamp',
      `webhook-timestamp is not Unix seconds: ${timestamp}`,
    );
  }
  const toleranceSeconds = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) {
    // Too old is a possible replay; too new means a clock is wrong. Either way, refuse.
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `webhook-timestamp ${timestamp} is more than ${toleranceSeconds} s from now (${nowSeconds})`,
    );
  }

  const bodyText = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(bodyText).digest();
  if (!signatures.split(' ').some((signature) => matches(signature, expected))) {
    throw new WebhookVerificationError('invalid_signature', 'no webhook-signature matches this secret');
  }

  try {
    return JSON.parse(bodyText) as WebhookPayload;
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'the body is signed but is not JSON');
  }
}

/** The HMAC key: the base64 after `whsec_` (a secret given without the prefix is accepted too). */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) {
    throw new WebhookVerificationError('invalid_secret', 'the secret is empty or not base64');
  }
  return key;
}

/** One `v1,<base64>` entry against the expected digest, in constant time; other versions never match. */
function matches(signature: string, expected: Buffer): boolean {
  const comma = signature.indexOf(',');
  if (comma === -1 || signature.slice(0, comma) !== 'v1') return false;
  const given = Buffer.from(signature.slice(comma + 1), 'base64');
  return given.length === SIGNATURE_BYTES && timingSafeEqual(given, expected);
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  const value = isFetchHeaders(headers)
    ? headers.get(name)
    : (headers[name] ?? headers[Object.keys(headers).find((key) => key.toLowerCase() === name) ?? '']);
  const single = Array.isArray(value) ? value[0] : value;
  return single?.trim() || undefined;
}

function isFetchHeaders(headers: WebhookHeaders): headers is Headers {
  return typeof (headers as Headers).get === 'function';
}
