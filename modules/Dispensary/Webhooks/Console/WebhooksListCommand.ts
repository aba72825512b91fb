import { inject, injectable, type CommandDefinition, type ConsoleCommand, type Print } from '#framework';
import { listedHook } from '../Model/Hook.js';
import { HookRegistry } from '../Model/HookRegistry.js';

/** `webhooks:list`: the hooks in force, from webhooks.xml files and from the REST routes (never a secret; header values masked). */
@injectable()
export class WebhooksListCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'webhooks:list',
    description: 'List the subscribed webhooks (webhooks.xml and run-time subscriptions)',
  };

  constructor(@inject('Dispensary\\Webhooks\\Model\\HookRegistry') private readonly registry: HookRegistry) {}

  async run(_input: unknown, print: Print): Promise<void> {
    const hooks = await this.registry.all();
    if (hooks.length === 0) print('No webhooks.');
    for (const hook of hooks.map(listedHook)) {
      const flags = [
        `batch ${hook.batch_name} (order ${hook.batch_order})`,
        `priority ${hook.priority}`,
        hook.required ? 'required' : 'optional',
        `timeout ${hook.timeout} ms`,
        ...hook.headers.map((header) => `header ${header.name}: ${header.value}`),
      ];
      print(
        `${hook.webhook_method} ${hook.webhook_type} ${hook.hook_name} -> ${hook.url} [${flags.join(', ')}] from ${hook.source}`,
      );
    }
  }
}
