import type { Command } from 'commander';
import { inject, injectable, type CliCommand } from '#framework';
import { StoreRepositoryInterface } from '../Api/StoreRepositoryInterface.js';

/** `store:create --code <code> --name <name>` */
@injectable()
export class StoreCreateCommand implements CliCommand {
  readonly name = 'store:create';
  readonly description = 'Create a store (a practice); its code is then a {scope} of the REST API';

  constructor(@inject(StoreRepositoryInterface) private readonly stores: StoreRepositoryInterface) {}

  configure(command: Command): void {
    command
      .requiredOption('--code <code>', 'store code: a lower-case letter, then letters, digits or _, at most 32')
      .requiredOption('--name <name>', 'store name');
  }

  async execute(options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const code = String(options.code);
    const store = await this.stores.create(code, String(options.name));
    print(`Created store "${store.code}" (id ${store.id}).`);
  }
}
