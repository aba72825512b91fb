import path from 'node:path';
import { ConfigError } from '../../framework/xml/xml.js';
import type { ConsoleCommand } from '../../framework/console/ConsoleCommand.js';
import { orderModules, type ModuleDefinition } from '../../framework/module/ModuleLoader.js';
import { enabledModuleNames } from '../../framework/module/ModuleStatus.js';
import { readModuleState, type ModuleCommandContext } from './ModuleCommandContext.js';

/**
 * `module:status`: the enabled modules in load order, then the disabled ones. Like the other module
 * commands it boots nothing, so it also shows a config that stops start-up, and why. A module
 * installed as an npm package is followed by its package, version and folder.
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
        for (const module of ordered) print(line(module));
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        print(`Enabled modules (start-up refuses them: ${error.message}):`);
        for (const module of installed.filter((m) => enabled.has(m.name)).sort(byName)) print(line(module));
      }
      const disabled = installed.filter((module) => !enabled.has(module.name));
      print('Disabled modules:');
      if (disabled.length === 0) print('  None');
      for (const module of [...disabled].sort(byName)) print(line(module));
    },
  };
}

function byName(a: ModuleDefinition, b: ModuleDefinition): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** `  Vendor_Module`, and for a package `  Vendor_Module  package@1.0.0 (node_modules/package)`. */
function line(module: ModuleDefinition): string {
  if (!module.package) return `  ${module.name}`;
  return `  ${module.name}  ${module.package.name}@${module.package.version} (${path.relative(process.cwd(), module.dir) || '.'})`;
}
