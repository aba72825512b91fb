/**
 * The knex CLI's configuration, so that a knex user's first commands work from the project root:
 * `npx knex migrate:latest | migrate:status | migrate:list | migrate:rollback | migrate:up |
 * migrate:down`. It uses the database the service uses (DATABASE_URL, parsed by the service's own
 * parseDatabaseUrl) and serves the migrations of every enabled module (etc/config.json, or
 * MODULE_CONFIG_FILE) through the service's ModuleMigrationSource, so both record the same names in
 * knex_migrations. Like the service, it lists the applied migrations of disabled or removed modules
 * too (read through a knex instance of its own), so that knex never calls the migration directory corrupt.
 *
 * knex loads it through knexfile.js, which compiles it with tsx: the CLI runs the modules'
 * TypeScript sources and needs no build (the service runs the compiled copies in dist/).
 * New migrations: `npm run migration:make -- --module Vendor_Module <name>` (app/bin/makeMigration.ts).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import { databaseTimeouts, databaseUrl, moduleConfigFile } from './app/bootstrap/config/DeploymentConfig.js';
import { parseDatabaseUrl } from './app/framework/db/dialect.js';
import { ModuleMigrationSource } from './app/framework/db/MigrationSource.js';
import { discoverModules, orderModules, readModuleConfig } from './app/framework/module/ModuleLoader.js';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
/** What `migrate:make` writes; a .ts file, so typecheck and lint keep it valid. */
const MIGRATION_STUB = path.join(ROOT, 'app', 'framework', 'db', 'migration.stub.ts');

// knex's CLI may run from a subfolder; a relative DATABASE_URL (the default sqlite:var/db.sqlite)
// means the project root, as it does for `npm start`.
process.chdir(ROOT);

function config(): Knex.Config {
  // Migrations may rebuild a large table: no statement timeout here (it bounds requests).
  const database = parseDatabaseUrl(databaseUrl(), { ...databaseTimeouts(), statementMs: 0 });
  const argv = process.argv.slice(2);
  if (argv.includes('migrate:make')) {
    // Plain `knex migrate:make` would write to ./migrations, which no module serves; with
    // --migrations-directory knex writes there (and a migrationSource would only earn a warning).
    if (!argv.some((arg) => arg.startsWith('--migrations-directory'))) {
      throw new Error(
        'A migration belongs to a module: npm run migration:make -- --module Vendor_Module <name> ' +
          '(or npx knex migrate:make <name> --migrations-directory modules/Vendor/Module/migrations)',
      );
    }
    return { ...database.config, migrations: { extension: 'ts', stub: MIGRATION_STUB } };
  }
  const filename = (database.config.connection as { filename?: string }).filename;
  if (database.dialect === 'sqlite' && filename && filename !== ':memory:') {
    mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  }
  const modulesDir = path.join(ROOT, 'modules');
  const installed = discoverModules([{ modulesDir, codeDir: modulesDir }]);
  const modules = orderModules(installed, readModuleConfig(moduleConfigFile(process.env, ROOT)));
  // knex does not hand its instance to a migration source; the knex CLI exits when its command is done.
  const knex = knexFactory({ ...database.config, pool: { min: 0, max: 1 } });
  return {
    ...database.config,
    migrations: { migrationSource: new ModuleMigrationSource(modules, { extensions: ['.ts'], installed, knex }) },
  };
}

export default config();
