/**
 * The driver's share, in this process before the servers take load: one Add Items transaction
 * (BEGIN, the recommendation, its items with their products, the catalog look-up, the insert,
 * the touch, COMMIT) through knex on better-sqlite3 with the app's own connection settings, the
 * same through knex without the statement cache, and the same statements run directly on
 * better-sqlite3 (prepared once); plus an empty knex transaction; and, when the `sqlite3` package
 * is installed, the same transaction through knex on it (why the service uses better-sqlite3).
 * Microseconds per transaction.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import knexFactory, { type Knex } from 'knex';
import { parseDatabaseUrl } from '../../app/framework/db/dialect.js';
import { ITEM_COLUMNS } from '../../modules/Dispensary/Recommendation/Model/ResourceModel/RecommendationResource.js';
import { ADD_FIRST, productSku, type SeededIds } from './data.js';
import { machineInfo } from './machine.js';

/** knex on the `sqlite3` package with the service's pragmas, or null when it is not installed. */
async function sqlite3Knex(filename: string): Promise<{ knex: Knex; version: string } | null> {
  let version: string;
  try {
    // Resolved at run time only: the package is not a dependency, so the type checker must not look for it.
    const optional = 'sqlite3';
    await import(optional);
    version = (createRequire(import.meta.url)(`${optional}/package.json`) as { version: string }).version;
  } catch {
    return null;
  }
  type Sqlite3Connection = { run(sql: string, done: (err: Error | null) => void): void };
  const pragma = (conn: Sqlite3Connection, sql: string) =>
    new Promise<void>((resolve, reject) => conn.run(sql, (err) => (err ? reject(err) : resolve())));
  const knex = knexFactory({
    client: 'sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: Sqlite3Connection, done: (err: Error | null, conn: unknown) => void) {
        pragma(conn, 'PRAGMA journal_mode = WAL')
          .then(() => pragma(conn, 'PRAGMA busy_timeout = 5000'))
          .then(() => pragma(conn, 'PRAGMA foreign_keys = ON'))
          .then(
            () => done(null, conn),
            (err: Error) => done(err, conn),
          );
      },
    },
  });
  return { knex, version };
}

export interface DriverReport {
  readonly driver: string;
  /** µs per transaction, median of the samples. */
  readonly knexAddTransaction: number;
  readonly knexAddTransactionWithoutStatementCache: number;
  readonly directAddTransaction: number;
  readonly knexEmptyTransaction: number;
  /**
   * The same Add Items transaction through knex on the `sqlite3` package (the original design's
   * driver), with the same pragmas; null unless it is installed (`npm install --no-save sqlite3`).
   */
  readonly knexAddTransactionOnSqlite3: number | null;
  /** `sqlite3 <version>`, when installed. */
  readonly sqlite3: string | null;
  readonly transactions: number;
}

function itemRows(recommendationId: string, skus: string[]) {
  return skus.map((sku) => ({
    item_id: randomUUID(),
    recommendation_id: recommendationId,
    sku,
    sku_key: sku.toLowerCase(),
    qty: 2,
    autoship_interval: 'once',
    note: null,
    fulfillment_type: 'automatic',
    doctor_id: null,
    location_id: null,
  }));
}

async function knexAdd(knex: Knex, id: string, skus: string[]): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('dispensary_recommendation').where('recommendation_id', id).andWhere('store_id', 1).first();
    await trx('dispensary_recommendation_item as i')
      .leftJoin('catalog_product as p', 'p.sku_key', 'i.sku_key')
      .where('i.recommendation_id', id)
      .orderBy('i.entity_id')
      .select(ITEM_COLUMNS);
    await trx('catalog_product')
      .select(['entity_id', 'sku', 'sku_key', 'name', 'price', 'status', 'is_in_stock'])
      .whereIn(
        'sku_key',
        skus.map((s) => s.toLowerCase()),
      );
    await trx('dispensary_recommendation_item')
      .insert(itemRows(id, skus))
      .onConflict(['recommendation_id', 'sku_key'])
      .ignore();
    await trx('dispensary_recommendation').where('recommendation_id', id).update({ updated_at: '2026-01-01 00:00:01' });
  });
}

/** `url`: the SQLite database; `reset` puts the Add pool back afterwards. */
export async function driverBenchmark(
  url: string,
  ids: SeededIds,
  transactions: number,
  reset: () => Promise<unknown>,
): Promise<DriverReport> {
  const settings = parseDatabaseUrl(url);
  const filename = url.slice('sqlite:'.length);
  const cached = knexFactory(settings.config);
  const uncached = knexFactory({
    ...settings.config,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: Database.Database, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        conn.pragma('busy_timeout = 5000');
        conn.pragma('foreign_keys = ON');
        done(null, conn);
      },
    },
  });
  const onSqlite3 = await sqlite3Knex(filename);
  const direct = new Database(filename);
  direct.pragma('journal_mode = WAL');
  direct.pragma('busy_timeout = 5000');
  direct.pragma('foreign_keys = ON');
  const insertSql = (() => {
    const columns = [
      'autoship_interval',
      'doctor_id',
      'fulfillment_type',
      'item_id',
      'location_id',
      'note',
      'qty',
      'recommendation_id',
      'sku',
      'sku_key',
    ];
    const row = columns.map((c) => `? as \`${c}\``).join(', ');
    return `insert into \`dispensary_recommendation_item\` (${columns.map((c) => `\`${c}\``).join(', ')}) select ${row} union all select ${row} where true on conflict (\`recommendation_id\`, \`sku_key\`) do nothing`;
  })();
  const st = {
    load: direct.prepare(
      'select * from `dispensary_recommendation` where `recommendation_id` = ? and `store_id` = ? limit ?',
    ),
    items: direct.prepare(
      'select `i`.`item_id`, `i`.`recommendation_id`, `i`.`sku`, `i`.`sku_key`, `i`.`qty`, `i`.`autoship_interval`, `i`.`note`, `i`.`fulfillment_type`, `i`.`doctor_id`, `i`.`location_id`, `p`.`sku` as `product_sku`, `p`.`is_in_stock` from `dispensary_recommendation_item` as `i` left join `catalog_product` as `p` on `p`.`sku_key` = `i`.`sku_key` where `i`.`recommendation_id` = ? order by `i`.`entity_id` asc',
    ),
    products: direct.prepare(
      'select `entity_id`, `sku`, `sku_key`, `name`, `price`, `status`, `is_in_stock` from `catalog_product` where `sku_key` in (?, ?)',
    ),
    insert: direct.prepare(insertSql),
    touch: direct.prepare('update `dispensary_recommendation` set `updated_at` = ? where `recommendation_id` = ?'),
  };
  const directAdd = direct.transaction((id: string, skus: string[]) => {
    st.load.get(id, 1, 1);
    st.items.all(id);
    st.products.all(...skus.map((s) => s.toLowerCase()));
    const values: unknown[] = [];
    for (const row of itemRows(id, skus))
      values.push(
        row.autoship_interval,
        row.doctor_id,
        row.fulfillment_type,
        row.item_id,
        row.location_id,
        row.note,
        row.qty,
        row.recommendation_id,
        row.sku,
        row.sku_key,
      );
    st.insert.run(...values);
    st.touch.run('2026-01-01 00:00:01', id);
  });

  // Each transaction adds two new products to the next pool recommendation, as Add Items does.
  let n = 0;
  const next = (): [string, string[]] => {
    const k = Math.floor(n / ids.addPool.length);
    const id = ids.addPool[n++ % ids.addPool.length]!;
    return [id, [productSku(ADD_FIRST + 2 * k), productSku(ADD_FIRST + 2 * k + 1)]];
  };
  const timed = async (work: () => Promise<unknown> | unknown): Promise<number> => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < transactions; i++) await work();
    return Number(process.hrtime.bigint() - start) / transactions / 1000;
  };
  try {
    // Warm-up of each path (as many transactions as a sample, at most 300: a smoke run's 20 need
    // no more), then interleaved samples.
    for (let i = 0; i < Math.min(300, transactions); i++) {
      await knexAdd(cached, ...next());
      await knexAdd(uncached, ...next());
      directAdd(...next());
      await cached.transaction(async () => undefined);
      if (onSqlite3) await knexAdd(onSqlite3.knex, ...next());
    }
    // Samples interleaved (A B C D A B C D ...), so a busy moment of the machine hits every path alike.
    const paths = {
      knexAddTransaction: () => timed(() => knexAdd(cached, ...next())),
      knexAddTransactionWithoutStatementCache: () => timed(() => knexAdd(uncached, ...next())),
      directAddTransaction: () => timed(() => directAdd(...next())),
      knexEmptyTransaction: () => timed(() => cached.transaction(async () => undefined)),
      ...(onSqlite3 ? { knexAddTransactionOnSqlite3: () => timed(() => knexAdd(onSqlite3.knex, ...next())) } : {}),
    };
    const samples = new Map<string, number[]>();
    for (let round = 0; round < 7; round++) {
      for (const [name, run] of Object.entries(paths) as [string, () => Promise<number>][]) {
        samples.set(name, [...(samples.get(name) ?? []), await run()]);
      }
    }
    const median = (name: string) => {
      const values = [...samples.get(name)!].sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)]!;
    };
    const result = {
      knexAddTransaction: median('knexAddTransaction'),
      knexAddTransactionWithoutStatementCache: median('knexAddTransactionWithoutStatementCache'),
      directAddTransaction: median('directAddTransaction'),
      knexEmptyTransaction: median('knexEmptyTransaction'),
      knexAddTransactionOnSqlite3: onSqlite3 ? median('knexAddTransactionOnSqlite3') : null,
      sqlite3: onSqlite3 ? `sqlite3 ${onSqlite3.version}` : null,
    };
    return { driver: `better-sqlite3 ${machineInfo().packages['better-sqlite3']}`, transactions, ...result };
  } finally {
    direct.close();
    await cached.destroy();
    await uncached.destroy();
    await onSqlite3?.knex.destroy();
    await reset();
  }
}
