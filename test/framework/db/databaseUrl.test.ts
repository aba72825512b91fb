/**
 * Unit tests of databaseUrl.ts: DATABASE_URL to knex config for each dialect (incl. PostgreSQL's
 * ?schema=), and the SQLite connection set-up, which installs the prepared-statement cache (how
 * that cache behaves: sqliteStatementCache.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import Database from 'better-sqlite3';
import knexFactory from 'knex';
import pg from 'pg';
import { parseDatabaseUrl, redactUrl } from '../../../app/framework/db/dialect.js';

interface PreparingConnection {
  prepare(sql: string): unknown;
  pragma(sql: string, options?: { simple: boolean }): unknown;
}

type KnexClient = {
  acquireConnection(): Promise<PreparingConnection>;
  releaseConnection(c: PreparingConnection): Promise<void>;
};

/** Runs `body` on the one pooled SQLite connection of a knex built from `url`. */
async function withSqliteConnection(
  url: string,
  body: (conn: PreparingConnection) => void | Promise<void>,
): Promise<void> {
  const knex = knexFactory(parseDatabaseUrl(url).config);
  const client = knex.client as unknown as KnexClient;
  const conn = await client.acquireConnection();
  try {
    await body(conn);
  } finally {
    await client.releaseConnection(conn);
    await knex.destroy();
  }
}

describe('databaseUrl', () => {
  describe('parseDatabaseUrl()', () => {
    describe('sqlite:', () => {
      it('should use better-sqlite3 on the file named, one connection, NULL as default', () => {
        const settings = parseDatabaseUrl('sqlite:var/db.sqlite');
        expect(settings.dialect).to.equal('sqlite');
        expect(settings.url).to.equal('sqlite:var/db.sqlite');
        expect(settings.config).to.include({ client: 'better-sqlite3', useNullAsDefault: true });
        expect(settings.config.connection).to.deep.equal({ filename: 'var/db.sqlite' });
        expect(settings.config.pool).to.include({ min: 1, max: 1 });
      });

      it('should read absolute paths in both spellings, and an empty path or :memory: as in-memory', () => {
        const filename = (url: string) => (parseDatabaseUrl(url).config.connection as { filename: string }).filename;
        expect(filename('sqlite:/tmp/x.sqlite')).to.equal('/tmp/x.sqlite');
        expect(filename('sqlite:///tmp/x.sqlite')).to.equal('/tmp/x.sqlite');
        expect(filename('sqlite:')).to.equal(':memory:');
        expect(filename('sqlite::memory:')).to.equal(':memory:');
      });

      it('should open a file in WAL mode with foreign keys on and a busy timeout', async () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'dialect-'));
        try {
          await withSqliteConnection(`sqlite:${path.join(dir, 'db.sqlite')}`, (conn) => {
            expect(conn.pragma('journal_mode', { simple: true })).to.equal('wal');
            expect(conn.pragma('foreign_keys', { simple: true })).to.equal(1);
            expect(conn.pragma('busy_timeout', { simple: true })).to.equal(5000);
          });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('should wait, not fail, to switch a new file to WAL while another connection writes to it', async () => {
        // Three servers starting on a new database at once: SQLite answers BUSY to the switch at
        // once (no busy handler) while another connection holds the write lock.
        const dir = mkdtempSync(path.join(os.tmpdir(), 'dburl-'));
        const file = path.join(dir, 'db.sqlite');
        const writer = new Database(file);
        try {
          writer.exec('CREATE TABLE t (x INTEGER)');
          writer.exec('BEGIN IMMEDIATE');
          writer.exec('INSERT INTO t VALUES (1)');
          const committed = new Promise((resolve) => setTimeout(() => resolve(writer.exec('COMMIT')), 150));
          await withSqliteConnection(`sqlite:${file}`, (conn) => {
            expect(conn.pragma('journal_mode', { simple: true })).to.equal('wal');
          });
          await committed;
        } finally {
          writer.close();
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('should leave an in-memory database out of WAL (it has no file to log beside)', async () => {
        await withSqliteConnection('sqlite::memory:', (conn) => {
          expect(conn.pragma('journal_mode', { simple: true })).to.equal('memory');
          expect(conn.pragma('foreign_keys', { simple: true })).to.equal(1);
        });
      });

      it('should keep the prepared statements of the connection by SQL text (sqliteStatementCache.ts)', async () => {
        await withSqliteConnection('sqlite::memory:', (conn) => {
          expect(conn.prepare('select 1 as one')).to.equal(conn.prepare('select 1 as one'));
        });
      });
    });

    describe('mysql:// and mariadb://', () => {
      it('should use mysql2 with the parts of the URL, decoding the credentials', () => {
        const settings = parseDatabaseUrl('mysql://app%20user:p%40ss%3Aword@db.internal:3307/shop');
        expect(settings.dialect).to.equal('mysql');
        expect(settings.config.client).to.equal('mysql2');
        expect(settings.config.connection).to.include({
          host: 'db.internal',
          port: 3307,
          user: 'app user',
          password: 'p@ss:word',
          database: 'shop',
        });
      });

      it('should default the port to 3306, accept mariadb://, and ask for text dates, numbers, utf8mb4 and UTC', () => {
        const settings = parseDatabaseUrl('mariadb://root@127.0.0.1/test');
        expect(settings.dialect).to.equal('mysql');
        expect(settings.config.connection).to.include({
          port: 3306,
          user: 'root',
          password: '',
          database: 'test',
          dateStrings: true,
          decimalNumbers: true,
          charset: 'utf8mb4',
          timezone: 'Z',
        });
      });
    });

    describe('postgres:// and postgresql://', () => {
      it('should use pg with the URL as connection string and no search path by default', () => {
        const settings = parseDatabaseUrl('postgres://postgres@127.0.0.1:5432/test');
        expect(settings.dialect).to.equal('postgres');
        expect(settings.config.client).to.equal('pg');
        expect(settings.config.connection).to.include({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
        expect(settings.config.searchPath).to.equal(undefined);
      });

      it('should take ?schema= out of the connection string into the search path, keeping other parameters', () => {
        const settings = parseDatabaseUrl('postgresql://u:secret@db:5433/shop?sslmode=disable&schema=tenant_a');
        expect(settings.dialect).to.equal('postgres');
        expect(settings.config.searchPath).to.deep.equal(['tenant_a']);
        expect(settings.config.connection).to.include({
          connectionString: 'postgresql://u:secret@db:5433/shop?sslmode=disable',
        });
      });

      it('should have pg answer timestamps as Magento text and numerics as numbers', () => {
        parseDatabaseUrl('postgres://postgres@127.0.0.1:5432/test');
        const timestamp = pg.types.getTypeParser(1114, 'text') as (text: string) => unknown;
        const numeric = pg.types.getTypeParser(1700, 'text') as (text: string) => unknown;
        expect(timestamp('2026-11-22 14:08:29.123456')).to.equal('2026-11-22 14:08:29');
        expect(numeric('12.50')).to.equal(12.5);
      });
    });

    it('should refuse any other URL, with the password redacted and the supported forms named', () => {
      expect(() => parseDatabaseUrl('oracle://scott:tiger@db/orcl'))
        .to.throw(
          Error,
          'Unsupported DATABASE_URL "oracle://scott:***@db/orcl": use sqlite:<file>, mysql://user:pass@host:port/db or postgres://user:pass@host:port/db',
        )
        .with.property('message')
        .that.does.not.contain('tiger');
      expect(() => parseDatabaseUrl('db.sqlite')).to.throw('Unsupported DATABASE_URL "db.sqlite"');
    });
  });

  describe('redactUrl()', () => {
    it('should hide the password only', () => {
      expect(redactUrl('postgres://u:secret@h:5432/db?schema=s')).to.equal('postgres://u:***@h:5432/db?schema=s');
      expect(redactUrl('mysql://root@127.0.0.1/test')).to.equal('mysql://root@127.0.0.1/test');
      expect(redactUrl('sqlite:var/db.sqlite')).to.equal('sqlite:var/db.sqlite');
    });
  });
});
