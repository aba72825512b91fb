import { collect, inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import {
  EventSubscriptionManagementInterface,
  type EventSubscriptionData,
} from '../Api/EventSubscriptionManagementInterface.js';

/**
 * `events:subscribe <name> --destination <url> [--parent <event>] [--fields <path> ...]
 * [--rules 'field|operator|value' ...] [--secret <whsec>] [--priority] [--format standardwebhooks|cloudevents]`: Adobe's spellings
 * (`--fields` once per field, or as Adobe's JSON `{"name": "..", "source": ".."}`; `--rules` with `|`;
 * `-d`, `-p`, and `-f`/`--force`, accepted and without effect: every observer event may be
 * subscribed here). `--field` and `--rule field:operator:value` are this project's older spellings.
 */
@injectable()
export class EventsSubscribeCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'events:subscribe',
    description: 'Subscribe an event (observer.<event_name>) to a destination URL; prints the generated secret once',
    arguments: [{ syntax: '<name>', description: 'observer.<event_name>, or an alias name with --parent' }],
    options: [
      { flags: '-d, --destination <url>', description: 'http(s) URL the events are POSTed to', required: true },
      { flags: '--parent <event>', description: 'the event an alias name listens to' },
      {
        flags: '--fields <path>',
        description:
          "a field of the event data to send (repeatable; items[].sku, '*', or Adobe's JSON form); none: all",
        parse: collect,
      },
      { flags: '--field <path>', description: 'the same as --fields (older spelling)', parse: collect },
      {
        flags: '--rules <field|operator|value>',
        description: 'send only when it holds (repeatable), Adobe\'s form: "qty|lessThan|20"',
        parse: collect,
      },
      { flags: '--rule <field:operator:value>', description: 'the same with ":" (older spelling)', parse: collect },
      { flags: '--secret <whsec>', description: 'the signing secret (default: generated and printed once)' },
      { flags: '-p, --priority', description: 'deliver through the priority queue, ahead of the others' },
      { flags: '-f, --force', description: "Adobe's; accepted, without effect (any observer event may be subscribed)" },
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
    const rules = [
      ...((options.rules as string[] | undefined) ?? []).map((rule) => splitRule(rule, '|')),
      ...((options.rule as string[] | undefined) ?? []).map((rule) => splitRule(rule, ':')),
    ];
    const fields = [
      ...((options.fields as string[] | undefined) ?? []),
      ...((options.field as string[] | undefined) ?? []),
    ].map(parseField);
    const saved = await this.subscriptions.subscribe({
      name: args[0],
      parent: (options.parent as string | undefined) ?? null,
      destination: String(options.destination),
      fields,
      rules,
      priority: options.priority === true,
      ...(options.format !== undefined ? { format: String(options.format) as EventSubscriptionData['format'] } : {}),
      ...(options.secret ? { secret: String(options.secret) } : {}),
    });
    print(`Subscribed ${saved.name} -> ${saved.destination}`);
    if (saved.secret) print(`Signing secret (shown once): ${saved.secret}`);
  }
}

/** `field|operator|value` (Adobe) or `field:operator:value`: the value is the rest, separators and all. */
function splitRule(rule: string, separator: string): { field: string; operator: string; value: string } {
  const [field = '', operator = '', ...value] = rule.split(separator);
  if (!field || !operator) throw new Error(`A rule is field${separator}operator${separator}value, not "${rule}"`);
  return { field, operator, value: value.join(separator) };
}

/** A field path, or Adobe's JSON form `{"name": "..", "source": ".."}`. */
function parseField(field: string): { name: string; source?: string } {
  if (!field.trimStart().startsWith('{')) return { name: field };
  let parsed: unknown;
  try {
    parsed = JSON.parse(field);
  } catch {
    throw new Error(`--fields ${field}: not valid JSON`);
  }
  const { name, source, ...rest } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof name !== 'string' || (source !== undefined && typeof source !== 'string'))
    throw new Error(`--fields ${field}: needs a string "name" (and optionally a string "source")`);
  if (Object.keys(rest).length > 0)
    throw new Error(`--fields ${field}: ${Object.keys(rest).join(', ')} not supported (converters are not)`);
  return source === undefined ? { name } : { name, source };
}
