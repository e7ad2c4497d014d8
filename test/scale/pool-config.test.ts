/** DATABASE_POOL_SIZE and DATABASE_STATEMENT_TIMEOUT_MS: read once, checked, passed to the PostgreSQL store. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const POSTGRES = 'postgres://eventplan@db.example:5432/eventplan';

describe('PostgreSQL pool settings', () => {
  it('default to 10 connections and a 5 s statement timeout', () => {
    expect(loadConfig({ DATABASE_URL: POSTGRES }).database).toEqual({
      kind: 'postgres',
      url: POSTGRES,
      poolSize: 10,
      statementTimeoutMs: 5000,
    });
  });

  it('take DATABASE_POOL_SIZE and DATABASE_STATEMENT_TIMEOUT_MS, 0 meaning no statement limit', () => {
    const { database } = loadConfig({
      DATABASE_URL: POSTGRES,
      DATABASE_POOL_SIZE: '25',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
    });
    expect(database).toMatchObject({ poolSize: 25, statementTimeoutMs: 0 });
  });

  it.each([
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', 'ten'],
    ['DATABASE_POOL_SIZE', '1001'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '-1'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '2.5'],
  ])('refuse %s=%s with a message naming the variable', (name, value) => {
    const load = () => loadConfig({ DATABASE_URL: POSTGRES, [name]: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(new RegExp(`^${name} must be a whole number`));
  });

  it('are checked even on SQLite, so a typo never waits for the move to PostgreSQL', () => {
    expect(() => loadConfig({ DATABASE_URL: ':memory:', DATABASE_POOL_SIZE: 'many' })).toThrow(
      /DATABASE_POOL_SIZE/,
    );
    expect(loadConfig({ DATABASE_URL: ':memory:' }).database).toEqual({ kind: 'sqlite', path: ':memory:' });
  });
});
