/**
 * Dashboard pages and assets, and the API reference at /docs, come compressed when the client asks
 * and plain when it does not; the JSON API never does.
 */
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const CSS = readFileSync(new URL('../../src/web/assets/app.css', import.meta.url));

const decode: Record<string, (bytes: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
};

describe('compression', () => {
  let t: TestApp;
  let cssUrl: string;
  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  beforeAll(async () => {
    t = await startTestApp();
    const page = await get('/app/sign-in');
    cssUrl = /href="(\/app\/assets\/app\.css\?v=[0-9a-f]+)"/.exec(page.body)![1]!;
  });
  afterAll(() => t.close());

  it.each([
    'gzip',
    'br',
  ])('sends the stylesheet as %s when asked, decoding to the same bytes', async (encoding) => {
    const response = await get(cssUrl, encoding);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toMatch(/immutable/);
    expect(response.rawPayload.length).toBeLessThan(CSS.length / 2);
    expect(decode[encoding]!(response.rawPayload).equals(CSS)).toBe(true);
    console.info(`app.css: ${CSS.length} bytes, ${response.rawPayload.length} as ${encoding}`);
  });

  it('prefers br when the browser offers gzip, deflate and br, as browsers do', async () => {
    const response = await get(cssUrl, 'gzip, deflate, br');
    expect(response.headers['content-encoding']).toBe('br');
  });

  it.each([
    'gzip',
    'br',
  ])('sends a page as %s when asked, decoding to the page sent plain', async (encoding) => {
    const plain = await get('/app/sign-in');
    const compressed = await get('/app/sign-in', encoding);
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe(encoding);
    expect(compressed.headers.vary).toMatch(/accept-encoding/i);
    // The form token differs per response; everything else is the same page.
    const withoutToken = (html: string) => html.replace(/name="_csrf" value="[^"]+"/g, '');
    expect(withoutToken(decode[encoding]!(compressed.rawPayload).toString('utf8'))).toBe(
      withoutToken(plain.body),
    );
  });

  it('sends the stylesheet and pages plain when the browser does not ask', async () => {
    for (const url of [cssUrl, '/app/sign-in']) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.vary).toMatch(/accept-encoding/i);
    }
    const css = await get(cssUrl, 'identity');
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.rawPayload.equals(CSS)).toBe(true);
  });

  it("compresses the API reference's script at /docs", async () => {
    const response = await get('/docs/static/swagger-ui-bundle.js', 'gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).length).toBeGreaterThan(response.rawPayload.length * 2);
  });

  it('leaves the JSON API uncompressed, even when asked', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/events?limit=100',
      headers: { 'x-api-key': t.key, 'accept-encoding': 'gzip, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toHaveProperty('data');
  });
});
