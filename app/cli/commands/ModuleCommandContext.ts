import type { Knex } from 'knex';
import type { ApplicationOptions } from '../../bootstrap/Application.js';
import { createKnex } from '../../bootstrap/startup/createKnex.js';
import { readDeploymentConfig } from '../../bootstrap/config/DeploymentConfig.js';
import { moduleConfigFileOf, moduleSourcesOf } from '../../bootstrap/config/moduleLocations.js';
import { parseDatabaseUrl, type Dialect } from '../../framework/db/dialect.js';
import type { Logger } from '../../framework/logging/logger.js';
import {
  discoverModules,
  readModuleConfig,
  type ModuleConfig,
  type ModuleDefinition,
} from '../../framework/module/ModuleLoader.js';

/**
 * What the module commands (module:status, module:enable, module:disable, module:uninstall,
 * setup:db:status) work with. They boot no application: a config that stops start-up must still be
 * repairable from the command line, as Magento's module:enable runs when the store cannot.
 */
export interface ModuleCommandContext {
  readonly options: ApplicationOptions;
  readonly logger: Logger;
}

/** The module folders' modules (enabled or not) and etc/config.json, read now. */
export function readModuleState(options: ApplicationOptions): {
  installed: ModuleDefinition[];
  config: ModuleConfig;
  configFile: string;
} {
  const configFile = moduleConfigFileOf(options);
  return { installed: discoverModules(moduleSourcesOf(options)), config: readModuleConfig(configFile), configFile };
}

/** Runs `work` on the service's database, then closes the connection. */
export async function withDatabase<T>(
  context: ModuleCommandContext,
  work: (knex: Knex, dialect: Dialect) => Promise<T>,
): Promise<T> {
  const database = parseDatabaseUrl(readDeploymentConfig(context.options).databaseUrl);
  const knex = createKnex(database, context.logger);
  try {
    return await work(knex, database.dialect);
  } finally {
    await knex.destroy();
  }
}
