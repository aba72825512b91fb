/**
 * A database of the benchmark's own, set up by the application itself (Application.create +
 * setupUpgrade: the modules' migrations and data installers; the integration token through the
 * CLI, as an operator makes one), then filled with the data set in bulk.
 *
 * SQLite: a fresh file under var/bench/. With DATABASE_URL (MySQL/MariaDB or PostgreSQL): a
 * database (MySQL) or schema (PostgreSQL) of its own on that server, dropped at the end.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pino from 'pino';
import { Application } from '../../app/bootstrap/Application.js';
import { databaseUrl } from '../../app/bootstrap/config/DeploymentConfig.js';
import { runCli } from '../../app/cli/Cli.js';
import { DEFAULT_DATABASE_TIMEOUTS, parseDatabaseUrl, type Dialect } from '../../app/framework/db/dialect.js';
import { productSku, seededProduct, STORE_CODE, type DataShape, type SeededIds } from './data.js';

/** The seed and the reset between runs are no requests: no statement bound (DB_STATEMENT_TIMEOUT_MS). */
const UNBOUNDED_STATEMENTS = { ...DEFAULT_DATABASE_TIMEOUTS, statementMs: 0 };

export interface BenchDatabase {
  readonly url: string;
  readonly dialect: Dialect;
  /** SQLite file, when SQLite. */
  readonly file?: string;
  release(): Promise<void>;
}

const TS = '2026-01-01 00:00:00';

/** Whether the bench runs on SQLite: DATABASE_URL unset or sqlite:... (what createBenchDatabase decides by). */
export function benchOnSqlite(serverUrl = databaseUrl()): boolean {
  return !serverUrl || serverUrl.startsWith('sqlite:');
}

/** A fresh database: `var/bench/<name>.sqlite`, or a new database / schema on DATABASE_URL's server. */
export async function createBenchDatabase(
  dir: string,
  name: string,
  serverUrl = databaseUrl(),
): Promise<BenchDatabase> {
  if (benchOnSqlite(serverUrl)) {
    mkdirSync(dir, { recursive: true });
    const file = path.resolve(dir, `${name}.sqlite`);
    const removeFiles = () => {
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
    };
    removeFiles();
    return { url: `sqlite:${file}`, dialect: 'sqlite', file, release: async () => removeFiles() };
  }
  const settings = parseDatabaseUrl(serverUrl);
  const dbName = `bench_${name.replace(/\W/g, '_')}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = knexFactory({ ...settings.config, pool: { min: 0, max: 1 } });
  try {
    const url = new URL(serverUrl);
    if (settings.dialect === 'mysql') {
      await admin.raw(`CREATE DATABASE \`${dbName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
      url.pathname = `/${dbName}`;
    } else {
      await admin.raw(`CREATE SCHEMA "${dbName}"`);
      url.searchParams.set('schema', dbName);
    }
    return {
      url: url.toString(),
      dialect: settings.dialect,
      release: async () => {
        const drop = knexFactory({ ...settings.config, pool: { min: 0, max: 1 } });
        const sql =
          settings.dialect === 'mysql'
            ? `DROP DATABASE IF EXISTS \`${dbName}\``
            : `DROP SCHEMA IF EXISTS "${dbName}" CASCADE`;
        await drop.raw(sql).finally(() => drop.destroy());
      },
    };
  } finally {
    await admin.destroy();
  }
}

export interface Seeded {
  readonly token: string;
  readonly ids: SeededIds;
  /** Items above this entity_id were written by a run; reset() deletes them. */
  readonly maxSeededItem: number;
  readonly counts: { products: number; recommendations: number; items: number };
  readonly seconds: number;
}

const silentLogger = () => pino({ level: 'silent' });

/** Migrations and installers through the application, the token through the CLI, then the data. */
export async function seed(database: BenchDatabase, shape: DataShape): Promise<Seeded> {
  const started = performance.now();
  const app = await Application.create({ area: 'global', databaseUrl: database.url, logger: silentLogger() });
  try {
    await app.setupUpgrade();
  } finally {
    await app.close();
  }
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['node', 'cli', 'integration:token:create', '--name', 'bench', '--store', STORE_CODE],
    { out: (line) => out.push(...line.split('\n')), err: (line) => err.push(line) },
    { databaseUrl: database.url, logger: silentLogger() },
  );
  if (code !== 0) throw new Error(`integration:token:create failed: ${err.join('\n')}`);
  const token = out
    .filter((line) => line.trim() !== '')
    .pop()!
    .trim();

  const settings = parseDatabaseUrl(database.url, UNBOUNDED_STATEMENTS);
  const knex = knexFactory({ ...settings.config, pool: { ...(settings.config.pool ?? {}), min: 0, max: 1 } });
  try {
    const result = await fill(knex, shape);
    return { token, ...result, seconds: (performance.now() - started) / 1000 };
  } finally {
    await knex.destroy();
  }
}

async function insertChunked(trx: Knex.Transaction, table: string, rows: Record<string, unknown>[]): Promise<void> {
  // 11 columns at most: 400 rows stay under every driver's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 400) await trx(table).insert(rows.slice(i, i + 400));
}

async function fill(knex: Knex, shape: DataShape): Promise<Omit<Seeded, 'token' | 'seconds'>> {
  const store = (await knex('store').where({ code: STORE_CODE }).first()) as { store_id: number } | undefined;
  if (!store) throw new Error(`store ${STORE_CODE} missing after setup:upgrade`);
  const storeId = Number(store.store_id);
  let itemCount = 0;
  const ids = await knex.transaction(async (trx) => {
    const products = [];
    for (let p = 0; p < shape.products; p++) {
      const sku = productSku(p);
      products.push({
        sku,
        sku_key: sku.toLowerCase(),
        name: `Bench product ${p}`,
        price: 10 + (p % 90),
        status: 1,
        is_in_stock: p % 7 !== 3,
        created_at: TS,
        updated_at: TS,
      });
    }
    await insertChunked(trx, 'catalog_product', products);

    const patients = [];
    for (let n = 0; n < shape.patients; n++) {
      const email = `patient${n}@bench.example`;
      patients.push({
        store_id: storeId,
        firstname: `Pat${n}`,
        lastname: 'Bench',
        email,
        email_key: email,
        created_at: TS,
        updated_at: TS,
      });
    }
    await insertChunked(trx, 'dispensary_patient', patients);
    const patientIds = (
      (await trx('dispensary_patient').select('patient_id').orderBy('patient_id')) as { patient_id: number }[]
    ).map((r) => Number(r.patient_id));

    /** `count` recommendations of `size` items each; item t of recommendation n is product f(n, t). */
    const makeSet = async (
      count: number,
      size: number,
      product: (n: number, t: number) => number,
    ): Promise<string[]> => {
      const recs: Record<string, unknown>[] = [];
      const items: Record<string, unknown>[] = [];
      const made: string[] = [];
      const flush = async (force: boolean) => {
        if (recs.length && (force || items.length >= 20_000)) {
          await insertChunked(trx, 'dispensary_recommendation', recs.splice(0));
          await insertChunked(trx, 'dispensary_recommendation_item', items.splice(0));
        }
      };
      for (let n = 0; n < count; n++) {
        const id = randomUUID();
        made.push(id);
        recs.push({
          recommendation_id: id,
          patient_id: patientIds[n % patientIds.length],
          store_id: storeId,
          format: n % 4 === 0 ? 'simple' : 'comprehensive',
          status: 'pending',
          note: n % 3 === 0 ? 'Follow up in a month' : null,
          notify_email: n % 2 === 0,
          notify_sms: false,
          created_at: TS,
          updated_at: TS,
        });
        for (let t = 0; t < size; t++) {
          const sku = productSku(product(n, t));
          items.push({
            item_id: randomUUID(),
            recommendation_id: id,
            sku,
            sku_key: sku.toLowerCase(),
            qty: 1 + (t % 5),
            autoship_interval: t % 3 === 0 ? '30d' : 'once',
            note: t % 4 === 0 ? 'Twice a day' : null,
            fulfillment_type: t % 5 === 0 ? 'LC' : 'automatic',
            doctor_id: null,
            location_id: null,
          });
        }
        itemCount += size;
        await flush(false);
      }
      await flush(true);
      return made;
    };
    const per = shape.itemsPerRecommendation;
    const recommendations = await makeSet(shape.recommendations, per, (n, t) => seededProduct(n, t, per));
    const addPool = await makeSet(shape.addPool, per, (n, t) => seededProduct(n, t, per));
    const bySize = new Map<number, string>([[per, recommendations[0]!]]);
    for (const size of shape.scalingSizes) {
      if (size > shape.products) throw new Error(`a recommendation of ${size} items needs ${size} products`);
      bySize.set(size, (await makeSet(1, size, (_n, t) => t))[0]!);
    }
    return { recommendations, addPool, bySize };
  });
  const max = (await knex('dispensary_recommendation_item').max({ m: 'entity_id' }).first()) as { m: number | string };
  if (isSqlite(knex)) await knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
  return {
    ids,
    maxSeededItem: Number(max.m),
    counts: {
      products: shape.products,
      recommendations: ids.recommendations.length + ids.addPool.length + shape.scalingSizes.length,
      items: itemCount,
    },
  };
}

function isSqlite(knex: Knex): boolean {
  return /sqlite/i.test(String(knex.client.config.client));
}

/**
 * Back to the seeded state between runs: the items Add Items inserted go (recommendations of
 * the Add pool are 10 items again). Update Items only changes values, GET nothing.
 */
export class Resetter {
  private readonly knex: Knex;

  constructor(
    url: string,
    private readonly maxSeededItem: number,
  ) {
    const settings = parseDatabaseUrl(url, UNBOUNDED_STATEMENTS);
    this.knex = knexFactory({ ...settings.config, pool: { ...(settings.config.pool ?? {}), min: 0, max: 1 } });
  }

  async reset(): Promise<number> {
    const deleted = await this.knex('dispensary_recommendation_item').where('entity_id', '>', this.maxSeededItem).del();
    if (isSqlite(this.knex)) await this.knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
    return deleted;
  }

  async itemCount(recommendationId: string): Promise<number> {
    const row = (await this.knex('dispensary_recommendation_item')
      .where({ recommendation_id: recommendationId })
      .count({ c: '*' })
      .first()) as { c: number | string };
    return Number(row.c);
  }

  async close(): Promise<void> {
    await this.knex.destroy();
  }
}

/** An all-stores integration token made through the CLI, as an operator makes one (the webhook and event benches). */
export async function allStoresToken(options: { databaseUrl: string }, name = 'bench'): Promise<string> {
  const out: string[] = [];
  const code = await runCli(
    ['node', 'cli', 'integration:token:create', '--name', name, '--all-stores'],
    { out: (line) => out.push(line), err: (line) => out.push(line) },
    options,
  );
  if (code !== 0) throw new Error(`integration:token:create failed: ${out.join('\n')}`);
  return out.filter((line) => line.trim() !== '').pop()!;
}
