import type { Knex } from 'knex';
import { requestContext } from '../context/RequestContext.js';
import type { Dialect } from './dialect.js';

/**
 * What repositories ask for a query builder. Inside a request it answers the unit of work's
 * transaction, so everything a request writes commits or rolls back together; outside, the pool.
 */
export class ConnectionProvider {
  constructor(
    readonly knex: Knex,
    readonly dialect: Dialect,
  ) {}

  get(): Knex {
    return requestContext.current()?.transaction ?? this.knex;
  }
}
