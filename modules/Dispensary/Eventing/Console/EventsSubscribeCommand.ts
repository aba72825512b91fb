import { collect, inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import {
  EventSubscriptionManagementInterface,
  type EventSubscriptionData,
} from '../Api/EventSubscriptionManagementInterface.js';

/**
 * `events:subscribe <name> --destination <url> [--parent] [--field ...] [--rule field:operator:value ...]
 * [--secret] [--priority] [--format standardwebhooks|cloudevents]`.
 */
@injectable()
export class EventsSubscribeCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'events:subscribe',
    description: 'Subscribe an event (observer.<event_name>) to a destination URL; prints the generated secret once',
    arguments: [{ syntax: '<name>', description: 'observer.<event_name>, or an alias name with --parent' }],
    options: [
      { flags: '--destination <url>', description: 'http(s) URL the events are POSTed to', required: true },
      { flags: '--parent <event>', description: 'the event an alias name listens to' },
      {
        flags: '--field <path>',
        description: 'a dot path of the event data to send (repeatable); none: all of it',
        parse: collect,
      },
      { flags: '--rule <field:operator:value>', description: 'send only when it holds (repeatable)', parse: collect },
      { flags: '--secret <whsec>', description: 'the signing secret (default: generated and printed once)' },
      { flags: '--priority', description: 'deliver through the priority queue, ahead of the others' },
      {
        flags: '--format <format>',
        description:
          'the envelope: standardwebhooks ({type, timestamp, data}; default) or cloudevents (CloudEvents 1.0)',
      },
    ],
  };

  constructor(
    @inject(EventSubscriptionManagementInterface) private readonly subscriptions: EventSubscriptionManagementInterface,
  ) {}

  async run({ args, options }: CommandInput, print: Print): Promise<void> {
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
      ...(options.format !== undefined ? { format: String(options.format) as EventSubscriptionData['format'] } : {}),
      ...(options.secret ? { secret: String(options.secret) } : {}),
    });
    print(`Subscribed ${saved.name} -> ${saved.destination}`);
    if (saved.secret) print(`Signing secret (shown once): ${saved.secret}`);
  }
}
