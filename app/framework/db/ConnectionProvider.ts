import type { Knex } from 'knex';
import { requestContext } from '../context/RequestContext.js';
import type { Dialect } from './DatabaseSettings.js';
import { preparedQueryRunner, type PreparedQueryRunner } from './preparedQueryRunner.js';
import type { PreparedQuery } from './PreparedQuery.js';

/**
 * What repositories ask for a query builder. Inside a request it answers the unit of work's
 * transaction, so everything a request writes commits or rolls back together; outside, the pool.
 */
export class ConnectionProvider {
  private readonly runner: PreparedQueryRunner;

  constructor(
    readonly knex: Knex,
    readonly dialect: Dialect,
  ) {
    this.runner = preparedQueryRunner(knex, dialect);
  }

  get(): Knex {
    return requestContext.current()?.transaction ?? this.knex;
  }

  /**
   * Runs a prepared query (PreparedQuery.ts) where `get()` would: in the unit of work's
   * transaction when one is open, else outside. How each driver runs it: preparedQueryRunner.ts.
   */
  run<V, R>(query: PreparedQuery<V, R>, input: V): Promise<R> {
    return this.runIn(query, input, requestContext.current()?.transaction);
  }

  /**
   * Runs a prepared query on the pool, never in the unit of work's transaction: what `knex`
   * (rather than `get()`) is to the query builder, for work that must commit on its own (the
   * event outbox's relay and consumer).
   */
  runOutside<V, R>(query: PreparedQuery<V, R>, input: V): Promise<R> {
    return this.runIn(query, input, undefined);
  }

  private runIn<V, R>(query: PreparedQuery<V, R>, input: V, transaction: Knex.Transaction | undefined): Promise<R> {
    // Performance (issue 28, 5): no async wrapper (one promise and one microtask less per
    // statement); what compiling throws still answers as a rejected promise.
    try {
      const compiled = query.compiledFor(this.knex);
      return this.runner.run(compiled, compiled.values(input), transaction) as Promise<R>;
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
