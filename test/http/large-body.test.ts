/**
 * A body over the 1 MiB limit, sent by a real client over a real socket, gets its 413 problem: the
 * server reads and discards the rest of the body (up to a bound) instead of resetting the connection
 * while the client is still sending, which fetch reports as EPIPE or "other side closed".
 */
import { type AddressInfo, connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectMatchesOpenApi, fromFetch } from '../helpers/openapi.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const MIB = 1024 * 1024;

/** 3 MiB of JSON, the last 2 MiB sent after a pause: the server has answered long before the end. */
function slowBody(): ReadableStream<Uint8Array> {
  const piece = new TextEncoder().encode('x'.repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent === 0) controller.enqueue(new TextEncoder().encode('{"otherNotes":"'));
      if (sent * piece.length >= 3 * MIB) {
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
        return;
      }
      if (sent * piece.length > 1.5 * MIB) await sleep(5);
      sent++;
      controller.enqueue(piece);
    },
  });
}

describe('a body larger than the limit, sent with fetch', () => {
  let t: TestApp;
  let baseUrl: string;
  let eventUrl: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const created = await fetch(`${baseUrl}/v1/events`, {
      method: 'POST',
      headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Large body' }),
    });
    eventUrl = `${baseUrl}/v1/events/${((await created.json()) as { id: string }).id}`;
  });
  afterAll(() => t.close());

  async function expectPayloadTooLarge(response: Response, method: string, url: string) {
    expect(response.status).toBe(413);
    expectMatchesOpenApi(await fromFetch(response.clone()), method, new URL(url).pathname);
    expect(await response.json()).toMatchObject({ code: 'payload_too_large' });
  }

  it('answers a 3 MiB PATCH with a Content-Length with the 413 problem, every time', async () => {
    const body = JSON.stringify({ otherNotes: 'x'.repeat(3 * MIB) });
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await fetch(eventUrl, {
        method: 'PATCH',
        headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
        body,
      });
      await expectPayloadTooLarge(response, 'PATCH', eventUrl);
    }
  });

  it.each([
    ['PATCH', () => eventUrl],
    ['POST', () => `${baseUrl}/v1/events`],
  ] as const)('answers a 3 MiB %s still being sent after the answer with the 413 problem', async (method, url) => {
    const response = await fetch(url(), {
      method,
      headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
      body: slowBody(),
      duplex: 'half',
    } as RequestInit);
    await expectPayloadTooLarge(response, method, url());
  });

  it('still serves the next request on the same connection after a 413', async () => {
    const response = await fetch(eventUrl, {
      method: 'PATCH',
      headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
      body: slowBody(),
      duplex: 'half',
    } as RequestInit);
    await expectPayloadTooLarge(response, 'PATCH', eventUrl);
    const next = await fetch(eventUrl, { headers: { 'x-api-key': t.key } });
    expect(next.status).toBe(200);
  });

  it('keeps reading a body it refused until the client has sent it all, then serves the next request', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let closedWhileSending = false;
    let sending = true;
    socket.on('data', (data) => {
      received += data;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      if (sending) closedWhileSending = true;
    });
    const path = new URL(eventUrl).pathname;
    socket.write(
      `PATCH ${path} HTTP/1.1\r\nHost: eventplan\r\nx-api-key: ${t.key}\r\n` +
        'content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n',
    );
    const piece = Buffer.alloc(64 * 1024, 'x');
    for (let index = 0; index < 48; index++) {
      socket.write(`${piece.length.toString(16)}\r\n`);
      socket.write(piece);
      socket.write('\r\n');
      await sleep(5);
    }
    socket.write('0\r\n\r\n');
    sending = false;
    expect(closedWhileSending).toBe(false);
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: eventplan\r\nx-api-key: ${t.key}\r\nConnection: close\r\n\r\n`,
    );
    await new Promise((resolve) => socket.on('close', resolve));
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('"code":"payload_too_large"');
    expect(received).toMatch(/\r\n\r\n[\s\S]*HTTP\/1\.1 200 OK/);
  });
});
