import path from 'node:path';
import type { Command } from 'commander';
import { DIST_ROOT, PROJECT_ROOT } from '../../bootstrap/paths.js';
import { discoverModules } from '../../framework/module/ModuleLoader.js';
import type { CliContext } from '../CliContext.js';

/** `module:status`: the enabled modules in load order, then the disabled ones. */
export function addModuleStatusCommand(program: Command, { app, options, out, setAction }: CliContext): void {
  program
    .command('module:status')
    .description('List modules in load order, and the disabled ones')
    .action(() => {
      setAction(async () => {
        const enabled = new Set(app.modules.map((m) => m.name));
        out('Enabled modules (in load order):');
        for (const module of app.modules) out(`  ${module.name}`);
        const sources = options.moduleSources ?? [{ modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') }];
        const disabled = discoverModules(sources).filter((m) => !enabled.has(m.name));
        out('Disabled modules:');
        if (disabled.length === 0) out('  None');
        for (const module of disabled) out(`  ${module.name}`);
      });
    });
}
