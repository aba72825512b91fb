import { existsSync } from 'node:fs';
import { ConfigError } from '../../framework/xml/xml.js';
import type { ConsoleCommand, Print } from '../../framework/console/ConsoleCommand.js';
import { appliedMigrationNames, readMigrationOwners } from '../../framework/db/MigrationOwners.js';
import { appliedModuleMigrations, rollBackModule } from '../../framework/db/ModuleDataRemover.js';
import { checkMigrationNames } from '../../framework/db/MigrationSource.js';
import { dependents, enabledModuleNames, writeModuleStatus } from '../../framework/module/ModuleStatus.js';
import { readModuleState, withDatabase, type ModuleCommandContext } from './ModuleCommandContext.js';

/**
 * `module:uninstall <Module> [--remove-data]` (Magento's ModuleUninstallCommand): refuses while an
 * enabled module depends on it; with --remove-data rolls back the module's migrations (only its
 * own, newest first: ModuleDataRemover.ts); then takes it out of etc/config.json. Magento's command
 * removes the code too; this one leaves the folder to you and keeps the module disabled while the
 * folder is there (a folder in modules/ with no entry would be enabled again).
 */
export function moduleUninstallCommand(context: ModuleCommandContext): ConsoleCommand {
  return {
    definition: {
      name: 'module:uninstall',
      description: 'Uninstalls a module: rolls back its migrations (--remove-data) and takes it out of etc/config.json',
      arguments: [{ syntax: '<module>', description: 'Name of the module' }],
      options: [
        { flags: '-r, --remove-data', description: 'Remove data installed by the module (roll back its migrations)' },
      ],
    },
    async run({ args: [name = ''], options: flags }, out) {
      const { installed, config, configFile } = readModuleState(context.options);
      const module = installed.find((candidate) => candidate.name === name);
      if (!module) {
        await uninstallAbsent(
          context,
          out,
          name,
          configFile,
          // Own entries only: `__proto__` or `constructor` is in every object, and is no module.
          Object.hasOwn(config.modules ?? {}, name),
          flags.removeData === true,
        );
        return;
      }
      const enabled = enabledModuleNames(installed, config);
      const depending = dependents(name, new Map(installed.map((m) => [m.name, m] as const)), enabled);
      if (depending.length) {
        throw new ConfigError(
          `Cannot uninstall module '${name}' because the following module(s) depend on it:\n${depending.map((d) => `\t${d.module}`).join('\n')}`,
        );
      }
      if (flags.removeData) {
        // Two modules shipping one migration name: the database cannot tell whose it applied.
        checkMigrationNames(installed);
        const rolledBack = await withDatabase(context, (knex, dialect) => rollBackModule(knex, dialect, module));
        if (rolledBack.length === 0) out(`${name} has no applied migration: there was no data to remove.`);
        else out(`Removed the data of ${name}: rolled back ${rolledBack.length} migration(s), newest first:`);
        for (const migration of rolledBack) out(`  ${migration}`);
      } else {
        const kept = await withDatabase(context, (knex) => appliedModuleMigrations(knex, module));
        if (kept.length)
          out(
            `${name}'s ${kept.length} applied migration(s) and their tables are kept; 'module:uninstall --remove-data ${name}' removes them.`,
          );
      }
      const folderStays = existsSync(module.dir);
      writeModuleStatus(configFile, { [name]: folderStays ? false : null });
      if (folderStays && module.package) {
        out(
          `${name} is disabled in ${configFile}; 'npm uninstall ${module.package.name}' removes its package (${module.dir}).`,
        );
        out(
          `Re-enabling it ('module:enable ${name}', then 'setup:upgrade') applies its migrations${flags.removeData ? ' again from scratch' : ' that are not applied'}.`,
        );
      } else if (folderStays) {
        out(
          `${name} is disabled in ${configFile} while its folder ${module.dir} is there; delete the folder to finish uninstalling.`,
        );
        out(
          `Re-enabling it ('module:enable ${name}', then 'setup:upgrade') applies its migrations${flags.removeData ? ' again from scratch' : ' that are not applied'}.`,
        );
      } else {
        out(`${name} is no longer listed in ${configFile}.`);
      }
    },
  };
}

/** A module whose folder is gone: its config entry can go; its data cannot be rolled back by code. */
async function uninstallAbsent(
  context: ModuleCommandContext,
  out: Print,
  name: string,
  configFile: string,
  listed: boolean,
  removeData: boolean,
): Promise<void> {
  const owned = await withDatabase(context, async (knex) => {
    const applied = new Set(await appliedMigrationNames(knex));
    return [...(await readMigrationOwners(knex))]
      .filter(([migration, owner]) => owner === name && applied.has(migration))
      .map(([migration]) => migration)
      .sort();
  });
  // ModuleUninstallCommand::validate's wording (no quotes, unlike module:enable's Status).
  if (!listed && owned.length === 0) throw new ConfigError(`Unknown module(s): ${name}`);
  if (removeData && owned.length) {
    throw new ConfigError(
      `Cannot remove the data of ${name}: its folder is no longer in the module folders, so the down() of its ${owned.length} applied migration(s) ` +
        `(${owned.join(', ')}) left with it (Magento's module:uninstall needs the module's code too). Nothing was changed. ` +
        `Put its folder back (it may stay disabled) and run 'module:uninstall --remove-data ${name}' again, or drop its tables yourself and delete those rows from knex_migrations.`,
    );
  }
  if (listed) writeModuleStatus(configFile, { [name]: null });
  out(
    listed
      ? `${name} is no longer listed in ${configFile}.`
      : `${name} is not listed in ${configFile}: nothing to change there.`,
  );
  if (owned.length) out(`Its ${owned.length} applied migration(s) and their tables are kept (${owned.join(', ')}).`);
}
