/**
 * SQLite that cannot write: a full database, a read-only one. Writes answer 503 (not 500),
 * /health says `degraded` with the reason until a write works again, and a server started on a
 * read-only file says the database is read-only.
 *
 * "Full" is SQLite's own limit (PRAGMA max_page_count set to the current size), which makes
 * SQLite answer SQLITE_FULL exactly as a full disk does; filling a real disk here would need root
 * tricks. "Read-only" at start-up is a real file mode (the server runs as an unprivileged user
 * when the tests run as root, for whom file modes do not apply); read-only at run time is
 * PRAGMA query_only, which answers SQLITE_READONLY.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { Application } from '../../app/bootstrap/Application.js';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import type { Dispensary } from '../modules/Recommendation/support.js';
import { freePort } from '../support/serverProcess.js';
import { startAbuseApp, type LogLine } from './support.js';

const UNAVAILABLE = { message: 'The service is temporarily unavailable. Try again later.' };
const onSqlite = !process.env.TEST_DATABASE_URL || process.env.TEST_DATABASE_URL.startsWith('sqlite:');

describe('Abuse: a database that cannot write (SQLite)', function () {
  this.timeout(60_000);
  before(function () {
    // SQLITE_FULL, SQLITE_READONLY and file modes are SQLite's; the server databases map their own codes (dialect.ts).
    if (!onSqlite) this.skip();
  });

  describe('when the database is full', () => {
    let d: Dispensary;
    let logs: LogLine[];
    before(async () => {
      ({ d, logs } = await startAbuseApp());
    });
    after(async () => d?.stop());

    it('should answer 503 to writes, report degraded on /health, and recover once writes fit again', async () => {
      await d.product('FULL-0');
      const pages = (await d.t.app.knex.raw('PRAGMA page_count')) as { page_count: number }[];
      await d.t.app.knex.raw(`PRAGMA max_page_count = ${pages[0]!.page_count}`);
      let res;
      for (let i = 1; i <= 200; i++) {
        res = await d
          .call('post', 'all', '/products')
          .send({ product: { sku: `FULL-${i}`, name: 'n'.repeat(255), price: 1 } });
        if (res.status !== 200) break;
      }
      expect(res!.status, JSON.stringify(logs.filter((l) => l.level >= 50))).to.equal(503);
      expect(res!.body).to.deep.equal(UNAVAILABLE);
      const health = await request(d.http).get('/health');
      expect(health.status).to.equal(503);
      expect(health.body).to.deep.equal({ status: 'degraded', database: 'up', reason: 'disk full' });
      // Reads still work.
      expect((await d.call('get', 'all', '/products/FULL-0')).status).to.equal(200);

      await d.t.app.knex.raw('PRAGMA max_page_count = 1073741823');
      const again = await request(d.http).get('/health');
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal({ status: 'ok', database: 'up' });
      expect(
        (await d.call('post', 'all', '/products').send({ product: { sku: 'FULL-AFTER', name: 'n' } })).status,
      ).to.equal(200);
    });
  });

  describe('when the database turns read-only while serving', () => {
    let d: Dispensary;
    before(async () => {
      ({ d } = await startAbuseApp());
    });
    after(async () => d?.stop());

    it('should answer 503 and report degraded "read-only" until a write commits', async () => {
      await d.t.app.knex.raw('PRAGMA query_only = ON');
      const res = await d.call('post', 'all', '/products').send({ product: { sku: 'RO-1', name: 'n' } });
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal(UNAVAILABLE);
      expect((await request(d.http).get('/health')).body).to.deep.equal({
        status: 'degraded',
        database: 'up',
        reason: 'read-only',
      });
      await d.t.app.knex.raw('PRAGMA query_only = OFF');
      expect((await d.call('post', 'all', '/products').send({ product: { sku: 'RO-1', name: 'n' } })).status).to.equal(
        200,
      );
      expect((await request(d.http).get('/health')).status).to.equal(200);
    });
  });

  describe('when the server starts on a read-only database file', () => {
    let dir: string;
    before(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'dispensary-ro-'));
      const app = await Application.create({ databaseUrl: `sqlite:${path.join(dir, 'db.sqlite')}` });
      await app.setupUpgrade();
      await app.close();
      // The directory stays writable (SQLite's -shm/-wal files); the database file does not.
      chmodSync(path.join(dir, 'db.sqlite'), 0o444);
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('should exit 1 saying the database is read-only (not that migrations are locked)', async () => {
      // Root writes a 0444 file all the same: as root the server runs in a mount namespace of its
      // own where the file is a read-only bind mount of itself. Running it as another user instead
      // needed a checkout that user may read, which a clone under /root or a 0700 folder is not.
      const asRoot = process.getuid?.() === 0;
      const file = path.join(dir, 'db.sqlite');
      const server = [process.execPath, path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'server.js')];
      const [command, ...args] = asRoot
        ? [
            'unshare',
            '--mount',
            'sh',
            '-c',
            'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"',
            'sh',
            file,
            ...server,
          ]
        : server;
      const child = spawn(command!, args, {
        cwd: PROJECT_ROOT,
        env: {
          ...process.env,
          DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`,
          PORT: String(await freePort()),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      expect(code).to.equal(1);
      expect(stderr).to.match(/^The database is read-only/);
      expect(stderr).to.not.match(/already locked/i);
    });
  });
});
