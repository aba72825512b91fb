import { DI_AREAS, type Area } from '../../framework/config/Area.js';
import type { ConsoleCommand } from '../../framework/console/ConsoleCommand.js';
import { describeEvents } from '../../framework/event/describeEvents.js';
import type { CliContext } from './CliContext.js';

/** `dev:event:list [event] [--area]`: the observers of each event in call order, per area. */
export function eventListCommand({ app }: CliContext): ConsoleCommand {
  return {
    definition: {
      name: 'dev:event:list',
      description: 'Print the observers of each event (or of one) in call order, per area',
      arguments: [
        { syntax: '[event]', description: 'only this event, e.g. dispensary_recommendation_items_add_after' },
      ],
      options: [{ flags: '--area <area>', description: `only this area: global, ${DI_AREAS.join(', ')}` }],
    },
    async run({ args: [event], options }, print) {
      const area = options.area as string | undefined;
      if (area !== undefined && area !== 'global' && !DI_AREAS.includes(area as (typeof DI_AREAS)[number]))
        throw new Error(`Unknown area "${area}"`);
      for (const line of describeEvents(app.modules, { event, area: area as Area | undefined })) print(line);
    },
  };
}
