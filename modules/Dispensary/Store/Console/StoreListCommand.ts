import { ConnectionProvider, FrameworkServices, inject, injectable } from '#framework';
import type { CommandDefinition, ConsoleCommand, Print } from '#framework';

interface StoreRow {
  store_id: number;
  code: string;
  name: string;
  is_default: number | boolean;
}

/** `store:list` */
@injectable()
export class StoreListCommand implements ConsoleCommand {
  readonly definition: CommandDefinition = { name: 'store:list', description: 'List stores' };

  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async run(_input: unknown, print: Print): Promise<void> {
    const query = this.connection.get()('store').select('store_id', 'code', 'name', 'is_default').orderBy('store_id');
    const rows = (await query) as StoreRow[];
    for (const row of rows) print(`${row.store_id}\t${row.code}\t${row.name}${row.is_default ? '\t(default)' : ''}`);
  }
}
