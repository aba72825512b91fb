/**
 * startServer.ts: the start-up phases in order, where the order shows. A route that does not check
 * out (phase 4) stops start-up before the database is upgraded (5) or a port bound (6); a database
 * that cannot be upgraded stops it before a port is bound.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { startServer, type StartedServer } from '../../../app/bootstrap/startServer.js';
import { ConfigError } from '../../../app/framework/xml/xml.js';
import { parseDatabaseUrl } from '../../../app/framework/db/dialect.js';
import { freePort } from '../../support/serverProcess.js';
import { ModuleTree, configXml, expectConfigError, routesXml } from '../support/moduleTree.js';

const NS = 'Fixture\\Dispatch';
const API = `${NS}\\Api\\DispatcherInterface`;
const PREFERENCE = `<preference for="${API}" type="${NS}\\Model\\Dispatcher"/>`;

function route(method: string): string {
  const resources = '<resources><resource ref="anonymous"/></resources>';
  return `<route url="/V1/dispatch" method="POST"><service class="${API}" method="${method}"/>${resources}</route>`;
}

/** Whether something accepts connections on 127.0.0.1:port. */
function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function hasMigrationsTable(databaseUrl: string): Promise<boolean> {
  const knex = knexFactory(parseDatabaseUrl(databaseUrl).config);
  try {
    return await knex.schema.hasTable('knex_migrations');
  } finally {
    await knex.destroy();
  }
}

describe('startServer: the start-up phases in order', function () {
  this.timeout(30_000);
  let tree: ModuleTree;
  let dir: string;
  let databaseUrl: string;
  let port: number;
  let started: StartedServer | undefined;

  beforeEach(async () => {
    tree = ModuleTree.create('runtime');
    dir = mkdtempSync(path.join(os.tmpdir(), 'start-server-'));
    databaseUrl = `sqlite:${path.join(dir, 'db.sqlite')}`;
    port = await freePort();
  });
  afterEach(async () => {
    if (started) {
      const { server, app } = started;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      started = undefined;
    }
    await tree.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const withRoute = (method: string) => {
    const files = { 'etc/di.xml': configXml(PREFERENCE), 'etc/webapi.xml': routesXml(route(method)) };
    tree.module('Fixture_Dispatch', { files });
  };
  const start = (extra: { databaseUrl?: string; databaseTimeouts?: { connectMs: number } } = {}) =>
    startServer(tree.options('webapi_rest', { databaseUrl, ...extra }), { port, host: '127.0.0.1' });

  describe('when a webapi.xml route names a method its contract does not have', () => {
    it('should fail naming the route, before upgrading the database or binding the port', async () => {
      withRoute('dispatchAll');
      const file = tree.path('Fixture_Dispatch', 'etc/webapi.xml');
      await expectConfigError(() => start(), file, 'POST /V1/dispatch', '"dispatchAll"');
      expect(await isListening(port)).to.equal(false);
      expect(await hasMigrationsTable(databaseUrl)).to.equal(false);
    });
  });

  describe('when the routes check out but the database cannot be reached', () => {
    it('should fail in the upgrade, before binding the port', async () => {
      withRoute('calc');
      const nowhere = `postgres://nobody@127.0.0.1:${await freePort()}/nothing`;
      let caught: unknown;
      await start({ databaseUrl: nowhere, databaseTimeouts: { connectMs: 2_000 } }).then(
        (server) => (started = server),
        (error: unknown) => (caught = error),
      );
      expect(caught, 'start-up should fail').to.be.instanceOf(Error);
      expect(caught).to.not.be.instanceOf(ConfigError);
      expect(await isListening(port)).to.equal(false);
    });
  });

  describe('when everything checks out', () => {
    it('should upgrade the database, then listen on the port and answer', async () => {
      withRoute('calc');
      started = await start();
      expect(await hasMigrationsTable(databaseUrl)).to.equal(true);
      const address = (started.server as http.Server).address() as net.AddressInfo;
      expect(address.port).to.equal(port);
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ status: 'ok', database: 'up' });
    });
  });
});
