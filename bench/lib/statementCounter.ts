/**
 * Counts the statements this process sends to its database, at the driver (better-sqlite3's
 * statement runs, node-postgres's and mysql2's query calls), so prepared statements, BEGIN and
 * COMMIT count as well as knex's queries. For the consumer's statements-per-operation probe.
 * With `timed`, also the time spent in each statement's driver call, by key (`ns`): meaningful on
 * SQLite only, whose driver runs a statement to completion inside the call (pg and mysql2 answer
 * later). That is how the service's and raw's Add Items statements were compared (issue 28, 5).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type Method = (...args: unknown[]) => unknown;
interface Patch {
  readonly target: Record<string, unknown>;
  readonly name: string;
  readonly original: Method;
}

export class StatementCounter {
  count = 0;
  /** The first words of each statement, when `keepSql` (e.g. "update `magento_operation`"). */
  readonly sql = new Map<string, number>();
  /** Nanoseconds inside the driver's call, by the same key as `sql`, when `timed`. */
  readonly ns = new Map<string, number>();
  private readonly patches: Patch[] = [];

  /** `keyWords`: how many of a statement's first words make its key in `sql`. */
  constructor(
    private readonly keepSql = true,
    private readonly keyWords = 3,
    private readonly timed = false,
  ) {}

  install(): this {
    const sqlite = require('better-sqlite3') as new (file: string) => { prepare(sql: string): object; close(): void };
    const db = new sqlite(':memory:');
    const statement = Object.getPrototypeOf(db.prepare('select 1')) as Record<string, unknown>;
    db.close();
    for (const name of ['run', 'get', 'all', 'iterate'])
      this.wrap(statement, name, function (this: { source: string }) {
        return this.source;
      });
    const pg = require('pg') as { Client: { prototype: Record<string, unknown> } };
    this.wrap(pg.Client.prototype, 'query', (config: unknown) =>
      typeof config === 'string' ? config : ((config as { text?: string }).text ?? ''),
    );
    const mysql = require('mysql2') as { Connection: { prototype: Record<string, unknown> } };
    for (const name of ['query', 'execute'])
      this.wrap(mysql.Connection.prototype, name, (sql: unknown) =>
        typeof sql === 'string' ? sql : ((sql as { sql?: string }).sql ?? ''),
      );
    return this;
  }

  uninstall(): void {
    for (const patch of this.patches.splice(0).reverse()) patch.target[patch.name] = patch.original;
  }

  private wrap(
    target: Record<string, unknown>,
    name: string,
    sqlOf: (this: never, ...args: unknown[]) => string,
  ): void {
    const original = target[name] as Method;
    const seen = (sql: string): string | undefined => {
      this.count++;
      if (!this.keepSql) return undefined;
      const key = sql.replace(/\s+/g, ' ').trim().split(' ').slice(0, this.keyWords).join(' ').toLowerCase();
      this.sql.set(key, (this.sql.get(key) ?? 0) + 1);
      return key;
    };
    const ns = this.ns;
    const timed = this.timed;
    target[name] = function (this: never, ...args: unknown[]) {
      const key = seen(String(sqlOf.apply(this, args)));
      if (!timed || key === undefined) return original.apply(this, args);
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        ns.set(key, (ns.get(key) ?? 0) + Number(process.hrtime.bigint() - started));
      }
    };
    this.patches.push({ target, name, original });
  }
}
