/**
 * DB_STATEMENT_TIMEOUT_MS, DB_ACQUIRE_TIMEOUT_MS, DB_CONNECT_TIMEOUT_MS (queryTimeouts.ts): a
 * statement the server runs too long is cancelled by the server, and a link that drops every
 * packet (a proxy that stops passing bytes, closing nothing) makes requests answer 503 within
 * the bound, leaves no connection stuck in the pool, and recovers without a restart. Runs only
 * against a database server (TEST_DATABASE_URL): SQLite has no link.
 */
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import request from 'supertest';
import type { Application } from '../../../app/bootstrap/Application.js';
import { isUnavailable, parseDatabaseUrl } from '../../../app/framework/db/dialect.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { startAppBehindProxy } from '../../support/proxiedApp.js';
import type { TcpProxy } from '../../support/tcpProxy.js';

const SERVER = process.env.TEST_DATABASE_URL ?? '';
const TIMEOUTS = { connectMs: 1000, acquireMs: 1000, statementMs: 500 };
/** acquire, then one statement and the client's grace (queryTimeouts.ts), and some slack for a busy machine. */
const BOUND_MS = TIMEOUTS.acquireMs + TIMEOUTS.statementMs + 1000 + 1500;

describe('database timeouts', function () {
  before(function () {
    if (!SERVER || SERVER.startsWith('sqlite:')) this.skip();
  });

  describe('when a statement runs longer than DB_STATEMENT_TIMEOUT_MS', () => {
    let knex: Knex;
    before(() => {
      knex = knexFactory(parseDatabaseUrl(SERVER, TIMEOUTS).config);
    });
    after(async () => knex?.destroy());

    it('should be cancelled by the server as "unavailable", on a connection that stays usable', async () => {
      const sleep = SERVER.startsWith('postgres') ? 'select pg_sleep(3)' : 'select sleep(3)';
      const started = performance.now();
      const error = await knex.raw(sleep).then(
        (result: unknown) => {
          // MariaDB's SLEEP answers 1 when interrupted rather than failing.
          return result;
        },
        (e: unknown) => e,
      );
      const took = performance.now() - started;
      expect(took).to.be.below(2500);
      if (error instanceof Error) expect(isUnavailable(error), String(error)).to.equal(true);
      expect(((await knex.raw('select 1 as one')) as unknown) !== undefined).to.equal(true);
    });
  });

  describe('when the link to the database drops every packet', () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let app: Application;
    let token: string;

    before(async () => {
      database = await createTestDatabase();
      ({ app, proxy, token } = await startAppBehindProxy(database, 'blackhole', { databaseTimeouts: TIMEOUTS }));
    });

    after(async () => {
      await proxy?.restore();
      await app?.close();
      await proxy?.stop();
      await database?.release();
    });

    const storeViews = () =>
      request(app.http()).get('/rest/all/V1/store/storeViews').set('Authorization', `Bearer ${token}`);

    it('should answer 503 within the bound, more requests than the pool at once, then recover with no restart', async function () {
      this.timeout(30_000);
      // Some connections in the pool first, as a running service has.
      await Promise.all(Array.from({ length: 4 }, () => storeViews().expect(200)));
      proxy.blackhole();

      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const res = await storeViews();
          return { status: res.status, ms: performance.now() - started };
        }),
      );
      expect(answers.map((a) => a.status)).to.deep.equal(Array(12).fill(503));
      expect(Math.max(...answers.map((a) => a.ms))).to.be.below(BOUND_MS);

      const healthStarted = performance.now();
      const health = await request(app.http()).get('/health');
      expect(health.status).to.equal(503);
      expect(health.body).to.include({ database: 'down' });
      expect(performance.now() - healthStarted).to.be.below(BOUND_MS);

      await proxy.restore();
      let recovered = 0;
      for (let attempt = 0; attempt < 50 && recovered !== 200; attempt++) {
        recovered = (await storeViews()).status;
        if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(recovered).to.equal(200);
      // No connection left stuck: more requests than the pool holds, at once, all answer.
      const after = await Promise.all(Array.from({ length: 20 }, () => storeViews()));
      expect(after.map((r) => r.status)).to.deep.equal(Array(20).fill(200));
      expect((await request(app.http()).get('/health')).status).to.equal(200);
    });
  });
});
