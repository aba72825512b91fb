import type { Knex } from 'knex';
import { requestContext } from '../context/RequestContext.js';
import { SERVICE_UNAVAILABLE, ServiceUnavailableException } from '../exception/ServiceUnavailableException.js';
import { isRetryableConflict, isUnavailable, storageFailure } from './dialect.js';
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
      try {
        return await this.transaction(async (trx) => {
          context.transaction = trx;
          try {
            return await work();
          } catch (error) {
            thrown = { error };
            throw error;
          } finally {
            context.transaction = undefined;
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
    }
  }
}

export function translateDatabaseError(error: unknown): unknown {
  if (isUnavailable(error) || storageFailure(error)) {
    return new ServiceUnavailableException(SERVICE_UNAVAILABLE, {}, undefined, { cause: error });
  }
  return error;
}
