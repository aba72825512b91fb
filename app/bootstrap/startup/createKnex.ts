import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { DatabaseSettings } from '../../framework/db/dialect.js';
import type { Logger } from '../../framework/logging/logger.js';

/** The service's knex pool for `database`; a SQLite file's folder is created first. */
export function createKnex(database: DatabaseSettings, logger: Logger): Knex {
  ensureDirectoryFor(database.config);
  // knex's own warnings (a dropped connection, a failed acquire) go to our log, not the console.
  return knexFactory({
    ...database.config,
    log: {
      warn: (message: unknown) => logger.warn({ knex: message }, 'knex warning'),
      error: (message: unknown) => logger.error({ knex: message }, 'knex error'),
      deprecate: (message: unknown) => logger.warn({ knex: message }, 'knex deprecation'),
      debug: (message: unknown) => logger.debug({ knex: message }, 'knex debug'),
    },
  });
}

/** Only a file database (SQLite) has a `filename`; `:memory:` has no folder. */
function ensureDirectoryFor(config: Knex.Config): void {
  const connection = config.connection as { filename?: string } | undefined;
  const filename = typeof connection === 'object' ? connection?.filename : undefined;
  if (filename && filename !== ':memory:') mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
}
