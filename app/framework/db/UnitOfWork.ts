import type { Knex } from 'knex';
import { requestContext } from '../context/RequestContext.js';
import { SERVICE_UNAVAILABLE, ServiceUnavailableException } from '../exception/ServiceUnavailableException.js';
import { isRetryableConflict, isUnavailable, storageFailure } from './driverErrors.js';
import { SqliteConnectionTransaction } from './SqliteConnectionTransaction.js';

export { SERVICE_UNAVAILABLE };

/**
 * One transaction around the whole intercepted call: when the service or any plugin throws,
 * nothing the request wrote is kept. A deadlock or serialization conflict reruns the call in a
 * fresh transaction (the first attempt left nothing behind); a lost database is a ServiceUnavailableException (503 at the web API).
 */
export class UnitOfWork {
  private readonly transaction: <R>(work: (trx: Knex.Transaction) => Promise<R>) => Promise<R>;

  constructor(
    private readonly knex: Knex,
    private readonly maxAttempts = 5,
  ) {
    const sqlite = SqliteConnectionTransaction.supports(knex) ? new SqliteConnectionTransaction(knex) : undefined;
    this.transaction = sqlite ? (work) => sqlite.run(work) : (work) => this.knex.transaction(work);
  }

  async run<R>(work: () => Promise<R>): Promise<R> {
    const context = requestContext.current();
    if (!context) throw new Error('UnitOfWork.run() needs a request context');
    for (let attempt = 1; ; attempt++) {
      let thrown: { error: unknown } | undefined;
      const committed: (() => void)[] = [];
      let result: R;
      try {
        result = await this.transaction(async (trx) => {
          context.transaction = trx;
          context.afterCommit = committed;
          try {
            return await work();
          } catch (error) {
            thrown = { error };
            throw error;
          } finally {
            context.transaction = undefined;
            context.afterCommit = undefined;
          }
        });
      } catch (rejection) {
        // SQLite rolls back by itself on SQLITE_FULL or an I/O error, and knex's own ROLLBACK then
        // fails ("no transaction is active"): the work's error is the one that says what happened.
        const error = thrown ? thrown.error : rejection;
        if (attempt < this.maxAttempts && isRetryableConflict(error)) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
          continue;
        }
        throw translateDatabaseError(error);
      }
      // Committed: outside the retry above, so that nothing a callback throws reruns the work.
      for (const callback of committed) callback();
      return result;
    }
  }
}

/**
 * Runs `callback` once the current unit of work commits (at once outside one); a rollback, or a
 * retry after a deadlock, drops it. For idempotent work that must not run before the change is
 * visible to others, such as dropping a cache of what the request changed: dropped before the
 * commit, another request could read the old state again and keep it. It must not throw: the
 * change has committed by then.
 */
export function afterCommit(callback: () => void): void {
  const queued = requestContext.current()?.afterCommit;
  if (queued) queued.push(callback);
  else callback();
}

/** A savepoint could not be rolled back to (the database ended the whole transaction): nothing of it can be kept. */
export class SavepointLostError extends Error {
  constructor(cause: unknown) {
    super('The transaction could not be rolled back to a savepoint', { cause });
    this.name = 'SavepointLostError';
  }
}

/** Savepoints open per transaction: a nested one gets a name of its own (MySQL replaces a savepoint of the same name). */
const openSavepoints = new WeakMap<object, number>();

/**
 * Runs `work` inside the current unit of work's transaction behind a savepoint: when it throws,
 * its writes alone are rolled back and the transaction goes on (a batch of queued operations, one
 * of which fails). Raw SAVEPOINT statements on the transaction's own connection, the same on
 * SQLite, MySQL/MariaDB and PostgreSQL.
 */
export async function withSavepoint<R>(work: () => Promise<R>): Promise<R> {
  const trx = requestContext.current()?.transaction;
  if (!trx) throw new Error('withSavepoint() needs an open unit of work');
  const depth = openSavepoints.get(trx) ?? 0;
  const name = `unit_of_work_${depth}`;
  await trx.raw(`SAVEPOINT ${name}`);
  openSavepoints.set(trx, depth + 1);
  let result: R;
  try {
    result = await work();
  } catch (error) {
    openSavepoints.set(trx, depth);
    try {
      await trx.raw(`ROLLBACK TO SAVEPOINT ${name}`);
      await trx.raw(`RELEASE SAVEPOINT ${name}`);
    } catch (rollbackError) {
      throw new SavepointLostError(rollbackError);
    }
    throw error;
  }
  openSavepoints.set(trx, depth);
  await trx.raw(`RELEASE SAVEPOINT ${name}`);
  return result;
}

export function translateDatabaseError(error: unknown): unknown {
  if (isUnavailable(error) || storageFailure(error)) {
    return new ServiceUnavailableException(SERVICE_UNAVAILABLE, {}, undefined, { cause: error });
  }
  return error;
}
