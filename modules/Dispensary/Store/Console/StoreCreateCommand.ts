import { inject, injectable } from '#framework';
import type { CommandDefinition, CommandInput, ConsoleCommand, Print } from '#framework';
import { StoreRepositoryInterface } from '../Api/StoreRepositoryInterface.js';

/** `store:create --code <code> --name <name>` */
@injectable()
export class StoreCreateCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = {
    name: 'store:create',
    description: 'Create a store (a practice); its code is then a {scope} of the REST API',
    options: [
      {
        flags: '--code <code>',
        description: 'store code: a lower-case letter, then letters, digits or _, at most 32',
        required: true,
      },
      { flags: '--name <name>', description: 'store name', required: true },
    ],
  };

  constructor(@inject(StoreRepositoryInterface) private readonly stores: StoreRepositoryInterface) {}

  async run({ options }: CommandInput, print: Print): Promise<void> {
    const store = await this.stores.create(String(options.code), String(options.name));
    print(`Created store "${store.code}" (id ${store.id}).`);
  }
}
