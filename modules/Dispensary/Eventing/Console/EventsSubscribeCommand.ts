import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { EventSubscriptionManagementInterface } from '../Api/EventSubscriptionManagementInterface.js';

/**
 * `events:subscribe <name> --destination <url> [--parent] [--field ...] [--rule field:operator:value ...]
 * [--secret] [--priority]`.
 */
@injectable()
export class EventsSubscribeCommand implements CliCommand {
  readonly name = 'events:subscribe';
  readonly description = 'Subscribe an event (observer.<event_name>) to a destination URL; prints the generated secret once';

  constructor(@inject(EventSubscriptionManagementInterface) private readonly subscriptions: EventSubscriptionManagementInterface) {}

  configure(command: Command): void {
    const many = (value: string, previous: string[] = []) => [...previous, value];
    command
      .argument('<name>', 'observer.<event_name>, or an alias name with --parent')
      .requiredOption('--destination <url>', 'http(s) URL the events are POSTed to')
      .option('--parent <event>', 'the event an alias name listens to')
      .option('--field <path>', 'a dot path of the event data to send (repeatable); none: all of it', many)
      .option('--rule <field:operator:value>', 'send only when it holds (repeatable)', many)
      .option('--secret <whsec>', 'the signing secret (default: generated and printed once)')
      .option('--priority', 'deliver through the priority queue, ahead of the others');
  }

  async execute(options: Record<string, unknown>, args: string[], print: (line: string) => void): Promise<void> {
    const rules = ((options.rule as string[] | undefined) ?? []).map((rule) => {
      const [field = '', operator = '', ...value] = rule.split(':');
      return { field, operator, value: value.join(':') };
    });
    const saved = await this.subscriptions.subscribe({
      name: args[0],
      parent: (options.parent as string | undefined) ?? null,
      destination: String(options.destination),
      fields: ((options.field as string[] | undefined) ?? []).map((name) => ({ name })),
      rules,
      priority: options.priority === true,
      ...(options.secret ? { secret: String(options.secret) } : {}),
    });
    print(`Subscribed ${saved.name} -> ${saved.destination}`);
    if (saved.secret) print(`Signing secret (shown once): ${saved.secret}`);
  }
}
