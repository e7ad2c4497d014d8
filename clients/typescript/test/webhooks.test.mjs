// verifyWebhook against signatures made here, from the Standard Webhooks 1.0 text alone:
// base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")), the key being the base64 after "whsec_".
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { verifyWebhook, WebhookVerificationError } from '../dist/index.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const now = new Date('2027-01-12T10:15:03.000Z');
const seconds = Math.floor(now.getTime() / 1000);
const body = JSON.stringify({
  type: 'event.created',
  timestamp: '2027-01-12T10:15:00.000Z',
  data: { sequence: 1 },
});

const sign = (key, id, timestamp, text) =>
  `v1,${createHmac('sha256', Buffer.from(key.slice('whsec_'.length), 'base64'))
    .update(`${id}.${timestamp}.${text}`)
    .digest('base64')}`;
const headersFor = (id, timestamp = seconds, key = secret, text = body) => ({
  'webhook-id': id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': sign(key, id, timestamp, text),
});
const refusal = (run) => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof WebhookVerificationError);
    return error.code;
  }
  assert.fail('accepted');
};

describe('verifyWebhook', () => {
  it('accepts a signed delivery and returns its parsed body, from a string, bytes or fetch Headers', () => {
    assert.deepEqual(verifyWebhook(secret, headersFor('msg_1'), body, { now }), JSON.parse(body));
    assert.equal(
      verifyWebhook(secret, new Headers(headersFor('msg_2')), new TextEncoder().encode(body), { now }).type,
      'event.created',
    );
  });

  it('accepts either of two signatures, as during a secret rotation', () => {
    const previous = `whsec_${randomBytes(32).toString('base64')}`;
    const headers = headersFor('msg_3');
    headers['webhook-signature'] =
      `${sign(previous, 'msg_3', seconds, body)} ${headers['webhook-signature']}`;
    assert.equal(verifyWebhook(secret, headers, body, { now }).data.sequence, 1);
    assert.equal(verifyWebhook(previous, headers, body, { now }).data.sequence, 1);
  });

  it('refuses a changed body, another secret, or another signature version', () => {
    const headers = headersFor('msg_4');
    assert.equal(
      refusal(() => verifyWebhook(secret, headers, `${body} `, { now })),
      'invalid_signature',
    );
    assert.equal(
      refusal(() => verifyWebhook(`whsec_${randomBytes(32).toString('base64')}`, headers, body, { now })),
      'invalid_signature',
    );
    const v2 = { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') };
    assert.equal(
      refusal(() => verifyWebhook(secret, v2, body, { now })),
      'invalid_signature',
    );
  });

  it('refuses a timestamp more than the tolerance away, either way, and missing headers', () => {
    assert.equal(
      refusal(() => verifyWebhook(secret, headersFor('msg_5', seconds - 301), body, { now })),
      'timestamp_out_of_tolerance',
    );
    assert.equal(
      refusal(() => verifyWebhook(secret, headersFor('msg_6', seconds + 301), body, { now })),
      'timestamp_out_of_tolerance',
    );
    assert.equal(
      verifyWebhook(secret, headersFor('msg_7', seconds - 300), body, { now }).type,
      'event.created',
    );
    assert.equal(
      refusal(() => verifyWebhook(secret, {}, body, { now })),
      'missing_headers',
    );
  });
});
