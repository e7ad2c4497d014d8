/** The floor's rate limit (bench/floor/gcra.ts), on a clock the test moves. */
import { describe, expect, it } from 'vitest';
import { createGcra } from '../../bench/floor/gcra.js';

describe("the floor's GCRA rate limit", () => {
  it('lets the whole allowance through at once, then one request per minute ÷ limit', () => {
    let now = 1_000_000;
    const consume = createGcra(6, () => now);
    const first = consume('key:a');
    expect(first).toMatchObject({ allowed: true, limit: '6', remaining: '5', reset: '10' });
    for (let request = 2; request <= 6; request++) expect(consume('key:a').allowed).toBe(true);
    const refused = consume('key:a');
    expect(refused).toMatchObject({ allowed: false, remaining: '0', retryAfterSeconds: 10 });
    now += 9_999;
    expect(consume('key:a').allowed).toBe(false);
    now += 1;
    expect(consume('key:a')).toMatchObject({ allowed: true, remaining: '0' });
  });

  it('never asks a refused client to wait longer than a minute', () => {
    let now = 0;
    const consume = createGcra(600, () => now);
    for (let request = 0; request < 5_000; request++) {
      const decision = consume('addr:127.0.0.1');
      expect(decision.retryAfterSeconds).toBeLessThanOrEqual(60);
      now += 7;
    }
  });

  it('counts each key on its own', () => {
    const consume = createGcra(1, () => 0);
    expect(consume('key:a').allowed).toBe(true);
    expect(consume('key:a').allowed).toBe(false);
    expect(consume('key:b').allowed).toBe(true);
  });
});
