import { ConfigError } from '../../framework/xml/xml.js';
import type { ConsoleCommand } from '../../framework/console/ConsoleCommand.js';
import { checkRuntimeRange } from '../../framework/module/ModuleLoader.js';
import { checkConstraints, modulesToChange, writeModuleStatus } from '../../framework/module/ModuleStatus.js';
import { readModuleState, type ModuleCommandContext } from './ModuleCommandContext.js';

/**
 * `module:enable` / `module:disable <Module...> [--force] [--all]` (Magento's
 * AbstractModuleManageCommand): edit etc/config.json, refuse a change that would leave an enabled
 * module depending on a disabled one, and say what to run next. A disabled module's tables stay.
 */
export function moduleEnableDisableCommands({ options }: ModuleCommandContext): ConsoleCommand[] {
  return [true, false].map((enable) => ({
    definition: {
      name: enable ? 'module:enable' : 'module:disable',
      description: enable ? 'Enables specified modules' : 'Disables specified modules',
      arguments: [{ syntax: '[module...]', description: 'Name of the module' }],
      options: [
        { flags: '-f, --force', description: 'Bypass dependencies check' },
        { flags: '--all', description: `${enable ? 'Enable' : 'Disable'} all modules` },
      ],
    },
    async run({ args: names, options: flags }, out) {
      const { installed, config, configFile } = readModuleState(options);
      const requested = flags.all ? installed.map((module) => module.name) : [...names];
      if (requested.length === 0)
        throw new ConfigError(
          'No modules specified. Specify a space-separated list of modules or use the --all option',
        );
      const changing = modulesToChange(enable, requested, installed, config);
      if (changing.length === 0) {
        out('No modules were changed.');
        return;
      }
      // A package made for another runtime version is refused before anything changes.
      if (enable) for (const name of changing) checkRuntimeRange(installed.find((module) => module.name === name)!);
      const constraints = checkConstraints(enable, changing, installed, config);
      if (constraints.length && !flags.force) {
        throw new ConfigError(
          ['Unable to change status of modules because of the following constraints:', ...constraints].join('\n'),
        );
      }
      writeModuleStatus(configFile, Object.fromEntries(changing.map((name) => [name, enable])));
      out(`The following modules have been ${enable ? 'enabled' : 'disabled'}:`);
      for (const name of changing) out(`- ${name}`);
      out('');
      if (enable) {
        out("To make sure that the enabled modules are properly registered, run 'setup:upgrade'.");
      } else {
        out(`Their tables and data are kept; 'module:uninstall --remove-data <Module>' removes them.`);
      }
      out('A running service loads the change when it restarts.');
      if (flags.force && constraints.length) {
        out('Alert: You used the --force option. As a result, modules might not function properly.');
        for (const line of constraints) out(`  ${line}`);
        out('Start-up refuses an enabled module whose <sequence> names a disabled one until this is resolved.');
      }
    },
  }));
}
