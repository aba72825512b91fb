import type { Command } from 'commander';
import { DI_AREAS, type Area } from '../../framework/config/Area.js';
import { describeEvents } from '../../framework/event/describeEvents.js';
import type { CliContext } from './CliContext.js';

/** `dev:event:list [event] [--area]`: the observers of each event in call order, per area. */
export function addEventListCommand(program: Command, { app, out, setAction }: CliContext): void {
  program
    .command('dev:event:list')
    .description('Print the observers of each event (or of one) in call order, per area')
    .argument('[event]', 'only this event, e.g. dispensary_recommendation_items_add_after')
    .option('--area <area>', `only this area: global, ${DI_AREAS.join(', ')}`)
    .action((event: string | undefined, opts: { area?: string }) => {
      setAction(async () => {
        if (opts.area !== undefined && opts.area !== 'global' && !DI_AREAS.includes(opts.area as (typeof DI_AREAS)[number])) throw new Error(`Unknown area "${opts.area}"`);
        for (const line of describeEvents(app.modules, { event, area: opts.area as Area | undefined })) out(line);
      });
    });
}
