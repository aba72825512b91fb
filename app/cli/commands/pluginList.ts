import type { Command } from 'commander';
import { DI_AREAS, type Area } from '../../framework/config/Area.js';
import { describeLevels } from '../../framework/interception/PluginList.js';
import type { CliContext } from './CliContext.js';

/** `dev:plugin:list <type> [method] [--area]`: a type's plugin chain in call order. */
export function addPluginListCommand(program: Command, { app, out, setAction, openApp }: CliContext): void {
  program
    .command('dev:plugin:list')
    .description('Print the plugin chain of a type (class or contract) in call order')
    .argument('<type>', 'class or contract name, e.g. Dispensary\\Recommendation\\Api\\RecommendationItemManagementInterface')
    .argument('[method]', 'only this method')
    .option('--area <area>', `config area: global, ${DI_AREAS.join(', ')}`, 'webapi_rest')
    .action((type: string, method: string | undefined, opts: { area: string }) => {
      setAction(async () => {
        const area = opts.area as Area;
        if (area !== 'global' && !DI_AREAS.includes(area as (typeof DI_AREAS)[number])) throw new Error(`Unknown area "${opts.area}"`);
        const om = (area === 'global' ? app : await openApp(area)).objectManager;
        const concrete = om.concreteName(type);
        if (!om.isBound(type)) throw new Error(`Unknown type ${type}`);
        const chains = om.chainsOf(type);
        out(`${type}${concrete !== type ? ` (served by ${concrete})` : ''}, area ${area}:`);
        const methods = method ? [method] : [...chains.keys()].sort();
        if (methods.length === 0) out('  no plugins');
        for (const name of methods) {
          const levels = chains.get(name);
          out(`  ${name}():`);
          if (!levels) {
            out('    no plugins');
            continue;
          }
          for (const line of describeLevels(levels, name)) out(`    ${line}`);
        }
      });
    });
}
