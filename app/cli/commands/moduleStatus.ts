import type { Command } from 'commander';
import { ConfigError } from '../../framework/xml/xml.js';
import { orderModules } from '../../framework/module/ModuleLoader.js';
import { enabledModuleNames } from '../../framework/module/ModuleStatus.js';
import { readModuleState, type ModuleCommandContext } from './ModuleCommandContext.js';

/**
 * `module:status`: the enabled modules in load order, then the disabled ones. Like the other module
 * commands it boots nothing, so it also shows a config that stops start-up, and why.
 */
export function addModuleStatusCommand(program: Command, { options, out, setAction }: ModuleCommandContext): void {
  program
    .command('module:status')
    .description('List modules in load order, and the disabled ones')
    .action(() => {
      setAction(async () => {
        const { installed, config } = readModuleState(options);
        const enabled = enabledModuleNames(installed, config);
        try {
          const ordered = orderModules(installed, config);
          out('Enabled modules (in load order):');
          for (const module of ordered) out(`  ${module.name}`);
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
          out(`Enabled modules (start-up refuses them: ${error.message}):`);
          for (const name of [...enabled].sort()) out(`  ${name}`);
        }
        const disabled = installed.filter((module) => !enabled.has(module.name));
        out('Disabled modules:');
        if (disabled.length === 0) out('  None');
        for (const module of disabled) out(`  ${module.name}`);
      });
    });
}
