import type { Command } from 'commander';
import { keptWarning } from '../../framework/db/MigrationSource.js';
import type { CliContext } from './CliContext.js';

/**
 * `setup:upgrade`: pending migrations of the enabled modules, then the data installers. A disabled
 * or removed module's applied migrations are kept (its tables stay): it says so, naming the module.
 */
export function addSetupUpgradeCommand(program: Command, { app, out, setAction }: CliContext): void {
  program
    .command('setup:upgrade')
    .description('Apply pending database migrations of the enabled modules, then the data installers')
    .action(() => {
      setAction(async () => {
        const { migrations, kept } = await app.setupUpgrade();
        out(migrations.length ? `Applied ${migrations.length} migration(s):` : 'Nothing to migrate: the database is up to date.');
        for (const name of migrations) out(`  ${name}`);
        for (const group of kept) out(keptWarning(group));
      });
    });
}
