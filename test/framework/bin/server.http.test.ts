import { expect } from 'chai';
import net from 'node:net';
import knexFactory from 'knex';
import { parseDatabaseUrl } from '../../../app/framework/db/dialect.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { freePort, ServerProcess } from '../../support/serverProcess.js';

describe('server processes', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  /**
   * A server the case before left serving, with its database: the SIGTERM case needs any serving
   * process and takes this one rather than starting one more (each start is seconds of CPU); run
   * alone, it starts its own.
   */
  let spare: { server: ServerProcess; database: TestDatabase } | undefined;

  beforeEach(async () => {
    database = await createTestDatabase();
  });
  /** Databases to release after the current case besides its own (a spare's, once taken). */
  const released: TestDatabase[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
    if (spare?.database !== database) released.push(database);
    await Promise.all(released.splice(0).map((d) => d.release()));
  });
  after(async () => {
    await spare?.server.stop('SIGKILL');
    await spare?.database.release();
  });

  describe('when three start at once on a new database', () => {
    it('should run every migration exactly once and all serve', async () => {
      for (let i = 0; i < 3; i++) servers.push(ServerProcess.spawn(database.url, await freePort()));
      // Three processes migrating a new database on a loaded CI machine: up to knex's own wait.
      await Promise.all(servers.map((s) => s.ready(90_000)));
      const knex = knexFactory(parseDatabaseUrl(database.url).config);
      try {
        const migrations = (await knex('knex_migrations').select('name')) as { name: string }[];
        const names = migrations.map((m) => m.name);
        expect(names.length).to.be.greaterThan(0);
        expect(new Set(names).size).to.equal(names.length);
        expect(await knex('knex_migrations_lock').select('index')).to.have.length(1);
        const stores = await knex('store').where({ code: 'default' });
        expect(stores).to.have.length(1);
      } finally {
        await knex.destroy();
      }
    });
  });

  describe('when processes that raced on a new database left two rows in knex_migrations_lock', () => {
    // knex inserts its lock row by "select, then insert if none": three servers starting at once on
    // a new database could each insert one (seen in CI), and knex's lock then refused everyone for ever.
    it('should keep one row, run the migrations and serve', async () => {
      const knex = knexFactory(parseDatabaseUrl(database.url).config);
      try {
        await knex.schema.createTable('knex_migrations_lock', (table) => {
          table.increments('index').primary();
          table.integer('is_locked');
        });
        await knex('knex_migrations_lock').insert([{ is_locked: 0 }, { is_locked: 0 }]);
        const server = ServerProcess.spawn(database.url, await freePort());
        servers.push(server);
        await server.ready(45_000);
        const rows = (await knex('knex_migrations_lock').select('is_locked')) as { is_locked: number }[];
        expect(rows.map((row) => Number(row.is_locked))).to.deep.equal([0]);
        expect(await knex('store').where({ code: 'default' })).to.have.length(1);
        // Passed, it serves on: the SIGTERM case below takes it.
        servers.splice(servers.indexOf(server), 1);
        spare = { server, database };
      } finally {
        await knex.destroy();
      }
    });
  });

  describe('when one receives SIGTERM with a request in flight', () => {
    it('should finish that request, refuse new connections and exit 0', async () => {
      const taken = spare?.server.child.exitCode === null ? spare : undefined;
      if (spare) {
        servers.push(spare.server);
        released.push(spare.database);
        spare = undefined;
      }
      const server = taken?.server ?? ServerProcess.spawn(database.url, await freePort());
      if (!taken) {
        servers.push(server);
        await server.ready();
      }

      // A request whose body is still arriving when the signal comes.
      const body = JSON.stringify({ username: 'nobody', password: 'wrong-password-1' });
      const socket = net.connect(server.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      let response = '';
      socket.on('data', (chunk) => (response += chunk.toString()));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write(
        `POST /rest/V1/integration/admin/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
      );
      // Time for the server to parse the headers: a connection with no request parsed yet is idle, and
      // shutting down closes idle connections unanswered (at load 30, 200 ms was not always enough).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      server.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));

      // The listener is closed: a new connection is refused.
      const refused = await new Promise<boolean>((resolve) => {
        const probe = net.connect(server.port, '127.0.0.1');
        probe.once('connect', () => {
          probe.destroy();
          resolve(false);
        });
        probe.once('error', () => resolve(true));
      });
      expect(refused).to.equal(true);

      socket.write(body.slice(10));
      await closed; // the server closes the connection once it has answered
      expect(response).to.match(/^HTTP\/1\.1 401 /);
      expect(response).to.contain('sign-in was incorrect');
      expect(await server.exitCode()).to.equal(0);
    });
  });
});
