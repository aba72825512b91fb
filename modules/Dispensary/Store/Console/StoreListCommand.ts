import type { Command } from 'commander';
import { ConnectionProvider, FrameworkServices, inject, injectable, type CliCommand } from '#framework';

/** `store:list` */
@injectable()
export class StoreListCommand implements CliCommand {
  readonly name = 'store:list';
  readonly description = 'List stores';

  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  configure(_command: Command): void {}

  async execute(_options: Record<string, unknown>, _args: string[], print: (line: string) => void): Promise<void> {
    const rows = (await this.connection.get()('store').select('store_id', 'code', 'name', 'is_default').orderBy('store_id')) as {
      store_id: number;
      code: string;
      name: string;
      is_default: number | boolean;
    }[];
    for (const row of rows) print(`${row.store_id}\t${row.code}\t${row.name}${row.is_default ? '\t(default)' : ''}`);
  }
}
