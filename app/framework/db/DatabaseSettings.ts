/**
 * The dialect a database URL names and the knex config it becomes (databaseUrl.ts builds it). The
 * types every file of the dialect layer shares live here, apart from dialect.ts, which only
 * re-exports the layer, so the layer's files never import their own barrel.
 */
import type { Knex } from 'knex';

export type Dialect = 'sqlite' | 'mysql' | 'postgres';

export interface DatabaseSettings {
  readonly url: string;
  readonly dialect: Dialect;
  readonly config: Knex.Config;
}
