import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { StoreConfigManagerInterface } from '../Api/StoreConfigManagerInterface.js';

/** `store:config:set [--store <code>] <path> <value>` */
@injectable()
export class StoreConfigSetCommand implements CliCommand {
  readonly name = 'store:config:set';
  readonly description = 'Set a store configuration value (GET /V1/store/storeConfigs), for one store or, without --store, for all';

  constructor(@inject(StoreConfigManagerInterface) private readonly config: StoreConfigManagerInterface) {}

  configure(command: Command): void {
    command
      .argument('<path>', 'e.g. general/locale/code, currency/options/base, general/locale/timezone, web/unsecure/base_url')
      .argument('<value>', 'the value')
      .option('--store <code>', 'only this store (default: the default scope, which every store inherits)');
  }

  async execute(options: Record<string, unknown>, args: string[], print: (line: string) => void): Promise<void> {
    const [path, value] = args as [string, string];
    const store = options.store === undefined ? null : String(options.store);
    await this.config.saveValue(path, value, store);
    print(`Saved ${path} = ${value} for ${store === null ? 'the default scope' : `the store "${store}"`}.`);
  }
}
