/**
 * The transport refuses private and reserved addresses (D18) before any packet leaves: literal
 * addresses by the URL check, names by the connect-time lookup, with a resolver of the test's own (no
 * DNS query) pointing at a listener on 127.0.0.1 that must see no connection at all.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlRefusal } from '../../src/adapters/webhook/address-policy.js';
import {
  createSafeTransport,
  guardedLookup,
  type Resolver,
} from '../../src/adapters/webhook/safe-transport.js';

const LITERALS = [
  '10.0.0.1',
  '127.0.0.1',
  '169.254.169.254',
  '[::1]',
  '[fd00::1]',
  '[::ffff:127.0.0.1]',
  '100.64.0.1',
  '224.0.0.1',
  '0.0.0.0',
  '192.168.1.1',
  '[fe80::1]',
];

describe('webhook network policy', () => {
  let listener: Server;
  let port: number;
  let connections = 0;
  const resolved: string[] = [];
  /** Every name resolves to what the test says; nothing reaches a DNS server. */
  const answers: Record<string, string> = {
    'loopback.test': '127.0.0.1',
    'private.test': '10.0.0.1',
    'metadata.test': '169.254.169.254',
    'v6-loopback.test': '::1',
    'unique-local.test': 'fd00::1',
    'mapped.test': '::ffff:127.0.0.1',
  };
  const resolver: Resolver = async (hostname) => {
    resolved.push(hostname);
    const address = answers[hostname];
    if (!address) throw Object.assign(new Error(`no test answer for ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };

  beforeAll(async () => {
    listener = createServer((_request, response) => response.end('should never be reached'));
    listener.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it.each(LITERALS)('refuses the literal address %s without connecting', async (host) => {
    const transport = createSafeTransport({
      timeoutMs: 1000,
      allowPrivateNetworks: false,
      responseBodyLimit: 1024,
      resolver,
    });
    const before = resolved.length;
    const outcome = await transport.send({ url: `https://${host}:${port}/hook`, headers: {}, body: '{}' });
    await transport.close();
    expect(outcome).toEqual({ kind: 'error', error: expect.stringMatching(/^refused: /) });
    expect(resolved.length).toBe(before);
    expect(connections).toBe(0);
  });

  it.each(
    Object.keys(answers),
  )('refuses %s, a name resolving to a private address, at connect time', async (name) => {
    const transport = createSafeTransport({
      timeoutMs: 1000,
      allowPrivateNetworks: false,
      responseBodyLimit: 1024,
      resolver,
    });
    // The URL alone is acceptable: only resolving it shows where it leads.
    expect(urlRefusal(`https://${name}/hook`, false)).toBeUndefined();
    const outcome = await transport.send({ url: `https://${name}:${port}/hook`, headers: {}, body: '{}' });
    await transport.close();
    expect(outcome).toEqual({
      kind: 'error',
      error: expect.stringContaining(`refused: ${name} resolves to`),
    });
    expect(resolved).toContain(name);
    expect(connections).toBe(0);
  });

  it('refuses a name once it rebinds from a public address to a private one', async () => {
    let calls = 0;
    const rebinding: Resolver = async () => {
      calls += 1;
      return [{ address: calls === 1 ? '93.184.215.14' : '127.0.0.1', family: 4 }];
    };
    const lookup = guardedLookup(rebinding, false);
    const first = await new Promise((resolve) =>
      lookup('rebind.test', {}, (error, address) => resolve(error ?? address)),
    );
    expect(first).toBe('93.184.215.14');
    const transport = createSafeTransport({
      timeoutMs: 1000,
      allowPrivateNetworks: false,
      responseBodyLimit: 1024,
      resolver: rebinding,
    });
    const outcome = await transport.send({
      url: `https://rebind.test:${port}/hook`,
      headers: {},
      body: '{}',
    });
    await transport.close();
    expect(outcome).toEqual({
      kind: 'error',
      error: expect.stringContaining('127.0.0.1 is a loopback address'),
    });
    expect(connections).toBe(0);
  });

  it('refuses a name when any of its addresses is private', async () => {
    const mixed: Resolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    const lookup = guardedLookup(mixed, false);
    const error = await new Promise((resolve) =>
      lookup('mixed.test', { all: true }, (failure) => resolve(failure)),
    );
    expect(String(error)).toContain('10.0.0.1 is a private address');
  });

  it('refuses http unless private networks are allowed, and then reaches 127.0.0.1', async () => {
    expect(urlRefusal('http://hooks.example.com/', false)).toBe('must be an https URL');
    const transport = createSafeTransport({
      timeoutMs: 1000,
      allowPrivateNetworks: true,
      responseBodyLimit: 1024,
      resolver,
    });
    const outcome = await transport.send({
      url: `http://loopback.test:${port}/hook`,
      headers: {},
      body: '{}',
    });
    await transport.close();
    expect(outcome).toMatchObject({ kind: 'response', statusCode: 200 });
    expect(connections).toBe(1);
  });
});
