/** Queries and transactions over the pool, with PostgreSQL's failures turned into domain errors. */
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { ConflictError, ServiceUnavailableError } from '../../domain/errors.js';

/** Serialization failure and deadlock: the transaction lost a race and can safely run again. */
const RETRYABLE = new Set(['40001', '40P01']);
export const TRANSACTION_ATTEMPTS = 5;

interface DriverError {
  code?: string;
  message?: string;
}

/**
 * Unreachable, overloaded or too slow: a 503 the client may retry, never a 500. A key conflict
 * (two operators creating the same user at once) is a 409.
 */
export function translateError(error: unknown): unknown {
  const { code = '', message = '' } = (error ?? {}) as DriverError;
  if (code === '23505') return new ConflictError('A record with the same key already exists.');
  const unavailable =
    code === '57014' || // statement timeout
    code === '53300' || // too many connections
    code.startsWith('08') || // connection exception
    code.startsWith('57P') || // server shutting down or starting
    lostConnection(code, message);
  if (unavailable) {
    return new ServiceUnavailableError('The database is unavailable or too slow right now; retry shortly.', {
      cause: error,
    });
  }
  return error;
}

/** The connection itself failed or went silent (client-side timeout): it cannot be used again. */
function lostConnection(code: string, message: string): boolean {
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE'].includes(code) ||
    /timeout exceeded when trying to connect|Connection terminated|Query read timeout/i.test(message)
  );
}

/** A checked-out client whose connection dies between queries emits 'error'; unheard, it would end the process. */
const ignoreClientError = () => undefined;

/**
 * One statement. With a `name`, the statement is prepared once per connection and then only bound and
 * run: PostgreSQL parses and plans it once, not on every request (for the hottest reads).
 */
export async function query<R extends QueryResultRow>(
  db: Pool | PoolClient,
  text: string,
  values: unknown[] = [],
  name?: string,
): Promise<{ rows: R[]; rowCount: number }> {
  try {
    const result = await db.query<R>(name === undefined ? { text, values } : { name, text, values });
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  } catch (error) {
    throw translateError(error);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The growing, jittered pause before attempt `attempt + 1` of work that lost a race. */
const backOff = (attempt: number) => pause(Math.random() * 10 * 2 ** attempt);

const retryable = (error: unknown) => RETRYABLE.has((error as DriverError | undefined)?.code ?? '');

/**
 * Runs `run` (statements that each commit on their own) again when one lost a race to a deadlock or a
 * serialization failure, as `inTransaction` does, a bounded number of times.
 */
export async function retryingRaces<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!retryable(error) || attempt >= TRANSACTION_ATTEMPTS) throw error;
      await backOff(attempt);
    }
  }
}

/**
 * Runs `work` in one READ COMMITTED transaction on one connection. Serialization failures and
 * deadlocks roll back and run again, a bounded number of times with a growing, jittered pause.
 * Anything `work` throws (a domain error included) rolls back and reaches the caller unchanged.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw translateError(error);
    }
    let broken: Error | undefined;
    client.on('error', ignoreClientError);
    try {
      // Explicit, whatever default_transaction_isolation says: row locks (FOR UPDATE) order the writers.
      await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      const { code = '', message = '' } = (error ?? {}) as DriverError;
      if (lostConnection(code, message)) {
        // No ROLLBACK on a dead connection (it would wait out another timeout); the server rolls back
        // when the connection goes, and the pool discards it.
        broken = error as Error;
      } else {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
      }
      if (retryable(error) && attempt < TRANSACTION_ATTEMPTS) {
        await backOff(attempt);
        continue;
      }
      throw translateError(error);
    } finally {
      // A connection whose ROLLBACK failed is in an unknown state: the pool discards it.
      client.off('error', ignoreClientError);
      client.release(broken);
    }
  }
}
