/**
 * `npm run migration:make -- --module Vendor_Module <name>`: a new migration in that module's
 * migrations/ folder, written by knex's own `migrate:make` through knexfile.ts (knex's UTC
 * `yyyymmddhhmmss_` prefix, this project's stub). The name is prefixed with the module's name in
 * snake_case with its vendor (`acme_reminders_create_reminder`, as the guide's module does), so
 * migrations of two modules made in the same second still differ, and the name tells its owner; a name that clashes with any module's migration is
 * refused. Runs from the TypeScript sources under tsx, like the knexfile; the service picks the
 * migration up from dist/ after its next build (`npm start` builds first).
 * `--modules-dir <folder>` looks for the module in another modules tree (the tests use it).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError } from '../framework/xml/xml.js';
import { ModuleMigrationSource } from '../framework/db/MigrationSource.js';
import { discoverModules } from '../framework/module/ModuleLoader.js';
import { toSnakeCase } from '../framework/webapi/naming.js';

/** This file runs from app/bin/ (tsx), not from dist/. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const USAGE = 'usage: npm run migration:make -- --module Vendor_Module <name>   (name: letters, digits, _)';

function main(): number {
  const { values, positionals } = parseArgs({
    options: { module: { type: 'string' }, 'modules-dir': { type: 'string' } },
    allowPositionals: true,
  });
  const name = positionals[0];
  if (!values.module || positionals.length !== 1 || !/^[A-Za-z0-9_]+$/.test(name!)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const modulesDir = path.resolve(values['modules-dir'] ?? path.join(ROOT, 'modules'));
  // Disabled modules too: a module's migrations are its own whether or not it is enabled now.
  const modules = discoverModules([{ modulesDir, codeDir: modulesDir }]);
  const module = modules.find((candidate) => candidate.name === values.module);
  if (!module) {
    process.stderr.write(
      `No module ${values.module} in ${modulesDir} (there are ${modules.map((m) => m.name).join(', ')})\n`,
    );
    return 1;
  }
  // The vendor too (`clinic_limits_...`, as the guide's `acme_reminders_...`): two vendors' modules may share a name.
  const prefix = [module.vendor, module.module]
    .map((part) => toSnakeCase(part.charAt(0).toLowerCase() + part.slice(1)))
    .join('_');
  const lower = name!.toLowerCase();
  const fullName = lower.startsWith(`${prefix}_`) ? lower : `${prefix}_${lower}`;

  const directory = path.join(module.dir, 'migrations');
  const before = new Set(listDir(directory));
  const knexCli = createRequire(import.meta.url).resolve('knex/bin/cli.js');
  const run = spawnSync(process.execPath, [knexCli, 'migrate:make', fullName, '--migrations-directory', directory], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (run.status !== 0) return run.status ?? 1;
  const created = listDir(directory).filter((entry) => !before.has(entry));
  try {
    new ModuleMigrationSource(modules, { extensions: ['.ts'] });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const entry of created) rmSync(path.join(directory, entry));
    process.stderr.write(`${error.message}; nothing was created\n`);
    return 1;
  }
  return 0;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

process.exit(main());
