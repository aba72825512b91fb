import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';

/** `setup:upgrade`: pending migrations of the enabled modules, then the data installers. */
export function addSetupUpgradeCommand(program: Command, { app, out, setAction }: CliContext): void {
  program
    .command('setup:upgrade')
    .description('Apply pending database migrations of the enabled modules, then the data installers')
    .action(() => {
      setAction(async () => {
        const { migrations } = await app.setupUpgrade();
        out(migrations.length ? `Applied ${migrations.length} migration(s):` : 'Nothing to migrate: the database is up to date.');
        for (const name of migrations) out(`  ${name}`);
      });
    });
}
