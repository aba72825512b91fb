import { ConfigError } from '../../framework/xml/xml.js';
import type { ConsoleCommand } from '../../framework/console/ConsoleCommand.js';
import { orderModules } from '../../framework/module/ModuleLoader.js';
import { enabledModuleNames } from '../../framework/module/ModuleStatus.js';
import { readModuleState, type ModuleCommandContext } from './ModuleCommandContext.js';

/**
 * `module:status`: the enabled modules in load order, then the disabled ones. Like the other module
 * commands it boots nothing, so it also shows a config that stops start-up, and why.
 */
export function moduleStatusCommand({ options }: ModuleCommandContext): ConsoleCommand {
  return {
    definition: { name: 'module:status', description: 'List modules in load order, and the disabled ones' },
    async run(_input, print) {
      const { installed, config } = readModuleState(options);
      const enabled = enabledModuleNames(installed, config);
      try {
        const ordered = orderModules(installed, config);
        print('Enabled modules (in load order):');
        for (const module of ordered) print(`  ${module.name}`);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        print(`Enabled modules (start-up refuses them: ${error.message}):`);
        for (const name of [...enabled].sort()) print(`  ${name}`);
      }
      const disabled = installed.filter((module) => !enabled.has(module.name));
      print('Disabled modules:');
      if (disabled.length === 0) print('  None');
      for (const module of disabled) print(`  ${module.name}`);
    },
  };
}
