import type { ConsoleCommand } from '../../framework/console/ConsoleCommand.js';
import { appliedMigrationNames, readMigrationOwners } from '../../framework/db/MigrationOwners.js';
import { moduleMigrationFiles, UNKNOWN_MODULE } from '../../framework/db/MigrationSource.js';
import { enabledModuleNames } from '../../framework/module/ModuleStatus.js';
import { readModuleState, withDatabase, type ModuleCommandContext } from './ModuleCommandContext.js';

/** Magento's DbStatusCommand::EXIT_CODE_UPGRADE_REQUIRED. */
export const EXIT_CODE_UPGRADE_REQUIRED = 2;

/**
 * `setup:db:status` (Magento's name): per module, its migrations that are applied, pending (an
 * enabled module's, not yet applied) and orphaned (applied, of a module that is disabled or whose
 * folder is gone: their tables stay). Changes nothing; exits 2 when setup:upgrade has work to do.
 */
export function setupDbStatusCommand(context: ModuleCommandContext): ConsoleCommand {
  return {
    definition: {
      name: 'setup:db:status',
      description: 'Checks if the database requires an upgrade: applied, pending and orphaned migrations per module',
    },
    async run(_input, out) {
      const { installed, config } = readModuleState(context.options);
      const enabled = enabledModuleNames(installed, config);
      const [applied, owners] = await withDatabase(
        context,
        async (knex) => [new Set(await appliedMigrationNames(knex)), await readMigrationOwners(knex)] as const,
      );
      const lines = new Map<string, { state: string; rows: string[] }>();
      const row = (module: string, state: string, text: string) => {
        const entry = lines.get(module) ?? { state, rows: [] };
        entry.rows.push(text);
        lines.set(module, entry);
      };
      const listed = new Set<string>();
      let pending = 0;
      for (const module of installed) {
        const on = enabled.has(module.name);
        for (const migration of moduleMigrationFiles(module)) {
          listed.add(migration.name);
          if (applied.has(migration.name))
            row(module.name, on ? 'enabled' : 'disabled', line(on ? 'applied' : 'orphaned', migration.name));
          else if (on) {
            pending++;
            row(module.name, 'enabled', line('pending', migration.name));
          }
        }
      }
      for (const name of applied) {
        if (!listed.has(name)) row(owners.get(name) ?? UNKNOWN_MODULE, 'not installed', line('orphaned', name));
      }
      for (const module of [...lines.keys()].sort()) {
        const { state, rows } = lines.get(module)!;
        out(`${module} (${state})`);
        for (const text of rows) out(text);
      }
      if (pending) {
        out(`${pending} migration(s) pending. Run 'setup:upgrade' to update your DB schema and data.`);
        return EXIT_CODE_UPGRADE_REQUIRED;
      }
      out('All modules are up to date.');
    },
  };
}

function line(label: 'applied' | 'pending' | 'orphaned', migration: string): string {
  return `  ${label.padEnd(8)}  ${migration}`;
}
