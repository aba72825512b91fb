import type { ConsoleCommand } from '../../framework/console/ConsoleCommand.js';
import type { CliContext } from './CliContext.js';

/** `dev:route:list`: the REST routes of the enabled modules. */
export function routeListCommand({ openApp }: CliContext): ConsoleCommand {
  return {
    definition: { name: 'dev:route:list', description: 'List the REST routes of the enabled modules' },
    async run(_input, print) {
      const rest = await openApp('webapi_rest');
      for (const route of rest.routes.keys()) {
        print(
          `${route.method.padEnd(6)} /rest/<scope>${route.url}  ${route.serviceClass}::${route.serviceMethod}  [${route.resources.join(', ')}]`,
        );
      }
    },
  };
}
