import { DI_AREAS, type Area } from '../../framework/config/Area.js';
import type { ConsoleCommand } from '../../framework/console/ConsoleCommand.js';
import { describeLevels } from '../../framework/interception/PluginList.js';
import type { CliContext } from './CliContext.js';

/** `dev:plugin:list <type> [method] [--area]`: a type's plugin chain in call order. */
export function pluginListCommand({ app, openApp }: CliContext): ConsoleCommand {
  return {
    definition: {
      name: 'dev:plugin:list',
      description: 'Print the plugin chain of a type (class or contract) in call order',
      arguments: [
        {
          syntax: '<type>',
          description:
            'class or contract name, e.g. Dispensary\\Recommendation\\Api\\RecommendationItemManagementInterface',
        },
        { syntax: '[method]', description: 'only this method' },
      ],
      options: [
        { flags: '--area <area>', description: `config area: global, ${DI_AREAS.join(', ')}`, default: 'webapi_rest' },
      ],
    },
    async run({ args: [type = '', method], options }, print) {
      const area = options.area as Area;
      if (area !== 'global' && !DI_AREAS.includes(area as (typeof DI_AREAS)[number]))
        throw new Error(`Unknown area "${area}"`);
      const om = (area === 'global' ? app : await openApp(area)).objectManager;
      const concrete = om.concreteName(type);
      if (!om.isBound(type)) throw new Error(`Unknown type ${type}`);
      const chains = om.chainsOf(type);
      print(`${type}${concrete !== type ? ` (served by ${concrete})` : ''}, area ${area}:`);
      const methods = method ? [method] : [...chains.keys()].sort();
      if (methods.length === 0) print('  no plugins');
      for (const name of methods) {
        const levels = chains.get(name);
        print(`  ${name}():`);
        if (!levels) {
          print('    no plugins');
          continue;
        }
        for (const line of describeLevels(levels, name)) print(`    ${line}`);
      }
    },
  };
}
