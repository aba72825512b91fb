import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { StoreConfigManagerInterface } from '../Api/StoreConfigManagerInterface.js';

/** `store:config:set [--store <code>] <path> <value>` */
@injectable()
export class StoreConfigSetCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'store:config:set',
    description:
      'Set a store configuration value (GET /V1/store/storeConfigs), for one store or, without --store, for all',
    arguments: [
      {
        syntax: '<path>',
        description: 'e.g. general/locale/code, currency/options/base, general/locale/timezone, web/unsecure/base_url',
      },
      { syntax: '<value>', description: 'the value' },
    ],
    options: [
      {
        flags: '--store <code>',
        description: 'only this store (default: the default scope, which every store inherits)',
      },
    ],
  };

  constructor(@inject(StoreConfigManagerInterface) private readonly config: StoreConfigManagerInterface) {}

  async run({ args, options }: CommandInput, print: Print): Promise<void> {
    const [path, value] = args as [string, string];
    const store = options.store === undefined ? null : String(options.store);
    await this.config.saveValue(path, value, store);
    print(`Saved ${path} = ${value} for ${store === null ? 'the default scope' : `the store "${store}"`}.`);
  }
}
