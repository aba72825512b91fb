import type { Command } from 'commander';
import type { CliContext } from './CliContext.js';

/** `dev:route:list`: the REST routes of the enabled modules. */
export function addRouteListCommand(program: Command, { out, setAction, openApp }: CliContext): void {
  program
    .command('dev:route:list')
    .description('List the REST routes of the enabled modules')
    .action(() => {
      setAction(async () => {
        const rest = await openApp('webapi_rest');
        for (const route of rest.routes.keys()) {
          out(`${route.method.padEnd(6)} /rest/<scope>${route.url}  ${route.serviceClass}::${route.serviceMethod}  [${route.resources.join(', ')}]`);
        }
      });
    });
}
