import type { ConsoleCommand } from '../../framework/console/ConsoleCommand.js';
import { keptWarning } from '../../framework/db/MigrationSource.js';
import type { CliContext } from './CliContext.js';

/**
 * `setup:upgrade`: pending migrations of the enabled modules, then the data installers. A disabled
 * or removed module's applied migrations are kept (its tables stay): it says so, naming the module.
 */
export function setupUpgradeCommand({ app }: CliContext): ConsoleCommand {
  return {
    definition: {
      name: 'setup:upgrade',
      description: 'Apply pending database migrations of the enabled modules, then the data installers',
    },
    async run(_input, print) {
      const { migrations, kept } = await app.setupUpgrade();
      print(
        migrations.length
          ? `Applied ${migrations.length} migration(s):`
          : 'Nothing to migrate: the database is up to date.',
      );
      for (const name of migrations) print(`  ${name}`);
      for (const group of kept) print(keptWarning(group));
    },
  };
}
