import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestSchema, type Scratch } from '../../../test/helpers/postgres.js';
import { describeWithService } from '../../../test/helpers/services.js';
import { ConflictError } from '../../domain/errors.js';
import { inTransaction, TRANSACTION_ATTEMPTS } from './postgres-transaction.js';

const driverError = (code: string) => Object.assign(new Error(`driver error ${code}`), { code });

describeWithService('postgres', 'PostgreSQL transactions', () => {
  let schema: Scratch;
  let pool: pg.Pool;
  beforeAll(async () => {
    schema = await createTestSchema();
    // A server default of SERIALIZABLE must not change how the store's transactions run.
    const url = schema.url.replace(
      /options=([^&]*)/,
      (_, options: string) =>
        `options=${encodeURIComponent(`${decodeURIComponent(options)} -c default_transaction_isolation=serializable`)}`,
    );
    pool = new pg.Pool({ connectionString: url, max: 2 });
    await pool.query('CREATE TABLE counter (n integer NOT NULL)');
    await pool.query('INSERT INTO counter VALUES (0)');
  });
  afterAll(async () => {
    await pool?.end();
    await schema?.drop();
  });

  it('runs again after a serialization failure or a deadlock, and commits the attempt that succeeds', async () => {
    let attempts = 0;
    const result = await inTransaction(pool, async (client) => {
      attempts++;
      await client.query('UPDATE counter SET n = n + 1');
      if (attempts === 1) throw driverError('40001');
      if (attempts === 2) throw driverError('40P01');
      return 'done';
    });
    expect(result).toBe('done');
    expect(attempts).toBe(3);
    // The failed attempts were rolled back: one increment only.
    expect((await pool.query('SELECT n FROM counter')).rows).toEqual([{ n: 1 }]);
  });

  it(`gives up after ${TRANSACTION_ATTEMPTS} attempts`, async () => {
    let attempts = 0;
    await expect(
      inTransaction(pool, async () => {
        attempts++;
        throw driverError('40001');
      }),
    ).rejects.toMatchObject({ code: '40001' });
    expect(attempts).toBe(TRANSACTION_ATTEMPTS);
  });

  it('passes any other error through at once, unchanged, with nothing written', async () => {
    const refusal = new ConflictError('no');
    let attempts = 0;
    await expect(
      inTransaction(pool, async (client) => {
        attempts++;
        await client.query('UPDATE counter SET n = n + 100');
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(attempts).toBe(1);
    expect((await pool.query('SELECT n FROM counter')).rows).toEqual([{ n: 1 }]);
  });

  it('runs at READ COMMITTED whatever the server default is', async () => {
    const level = await inTransaction(pool, async (client) => {
      const { rows } = await client.query('SHOW transaction_isolation');
      return rows[0].transaction_isolation;
    });
    expect(level).toBe('read committed');
    expect(
      (await pool.query('SHOW default_transaction_isolation')).rows[0].default_transaction_isolation,
    ).toBe('serializable');
  });
});
