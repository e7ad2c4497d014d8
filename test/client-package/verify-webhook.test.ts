/** verifyWebhook (clients/typescript) against signatures made by the standardwebhooks package and by eventplan. */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../clients/typescript/src/index.js';
import { newWebhookSecret, sign, webhookHeaders } from '../../src/app/webhook-signature.js';

const secret = newWebhookSecret();
const body = JSON.stringify({
  type: 'event.created',
  timestamp: '2027-01-12T10:15:00.000Z',
  data: { id: '9a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', sequence: 1 },
});
const now = new Date('2027-01-12T10:15:03.000Z');
const seconds = Math.floor(now.getTime() / 1000);

function refusal(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error('verifyWebhook accepted it');
}

describe('verifyWebhook', () => {
  it('accepts a delivery signed by the standardwebhooks package and returns its parsed body', () => {
    const signature = new Webhook(secret).sign('msg_1', now, body);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(seconds),
      'webhook-signature': signature,
    };
    expect(verifyWebhook(secret, headers, body, { now })).toEqual(JSON.parse(body));
  });

  it("accepts a delivery signed by eventplan's own signer, given as fetch Headers and as bytes", () => {
    const headers = new Headers(
      webhookHeaders({ current: secret, previous: null, previousExpiresAt: null }, 'change-1', body, now),
    );
    expect(verifyWebhook(secret, headers, new TextEncoder().encode(body), { now }).type).toBe(
      'event.created',
    );
  });

  it('accepts either secret during a rotation, when the header carries two signatures', () => {
    const previous = newWebhookSecret();
    const headers = webhookHeaders(
      { current: secret, previous, previousExpiresAt: '2027-01-13T00:00:00.000Z' },
      'change-2',
      body,
      now,
    );
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyWebhook(previous, headers, body, { now }).data.sequence).toBe(1);
    expect(verifyWebhook(secret, headers, body, { now }).data.sequence).toBe(1);
  });

  it('finds headers whatever their case, as a plain object', () => {
    const headers = {
      'Webhook-Id': 'change-3',
      'Webhook-Timestamp': String(seconds),
      'Webhook-Signature': sign(secret, 'change-3', seconds, body),
    };
    expect(verifyWebhook(secret, headers, body, { now }).type).toBe('event.created');
  });

  it('refuses a body changed after signing, another secret, or an unknown signature version', () => {
    const headers = {
      'webhook-id': 'change-4',
      'webhook-timestamp': String(seconds),
      'webhook-signature': sign(secret, 'change-4', seconds, body),
    };
    expect(refusal(() => verifyWebhook(secret, headers, `${body} `, { now })).code).toBe('invalid_signature');
    expect(refusal(() => verifyWebhook(newWebhookSecret(), headers, body, { now })).code).toBe(
      'invalid_signature',
    );
    const v2 = { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') };
    expect(refusal(() => verifyWebhook(secret, v2, body, { now })).code).toBe('invalid_signature');
    const truncated = { ...headers, 'webhook-signature': headers['webhook-signature'].slice(0, 20) };
    expect(refusal(() => verifyWebhook(secret, truncated, body, { now })).code).toBe('invalid_signature');
  });

  it('refuses a timestamp outside the tolerance either way, and accepts one just inside it', () => {
    const signedAt = (offsetSeconds: number) => {
      const timestamp = seconds + offsetSeconds;
      return {
        'webhook-id': 'change-5',
        'webhook-timestamp': String(timestamp),
        'webhook-signature': sign(secret, 'change-5', timestamp, body),
      };
    };
    expect(refusal(() => verifyWebhook(secret, signedAt(-301), body, { now })).code).toBe(
      'timestamp_out_of_tolerance',
    );
    expect(refusal(() => verifyWebhook(secret, signedAt(301), body, { now })).code).toBe(
      'timestamp_out_of_tolerance',
    );
    expect(verifyWebhook(secret, signedAt(-300), body, { now }).type).toBe('event.created');
    expect(
      refusal(() => verifyWebhook(secret, signedAt(-60), body, { now, toleranceSeconds: 30 })).code,
    ).toBe('timestamp_out_of_tolerance');
  });

  it('refuses missing headers and a timestamp that is not Unix seconds', () => {
    expect(refusal(() => verifyWebhook(secret, {}, body, { now })).code).toBe('missing_headers');
    const headers = { 'webhook-id': 'x', 'webhook-timestamp': '2027-01-12', 'webhook-signature': 'v1,AAAA' };
    expect(refusal(() => verifyWebhook(secret, headers, body, { now })).code).toBe('invalid_timestamp');
  });

  it('refuses an empty secret', () => {
    expect(refusal(() => verifyWebhook('whsec_', {}, body, { now })).code).toBe('invalid_secret');
  });
});
