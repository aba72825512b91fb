/**
 * The modules a test runs with (test/support/modules.ts): the project's own by default, whatever
 * else sits in modules/ and whatever etc/config.json says; others when the test names them. The
 * example module Acme_RecommendationNotes (in modules/, shipped off) shows a switched-on module at
 * work. (The third-party fixture Clinic_QtyLimits is not used here: .ci/suite-with-thirdparty-module
 * puts a copy in modules/ while this suite runs.)
 */
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { DIST_ROOT, PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { ModuleTree } from '../framework/support/moduleTree.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { moduleConfigFor, PROJECT_MODULE_SOURCES, PROJECT_MODULES } from './modules.js';
import { freePort, ServerProcess } from './serverProcess.js';
import { TestApp } from './testApp.js';

/** A folder of modules a test passes itself (Fixture_Ext). */
const FIXTURES = {
  modulesDir: path.join(PROJECT_ROOT, 'test', 'fixtures', 'extension', 'modules'),
  codeDir: path.join(DIST_ROOT, 'test', 'fixtures', 'extension', 'modules'),
};
const WITH_FIXTURES = [PROJECT_MODULE_SOURCES, FIXTURES];

const on = (config: Record<string, boolean>) =>
  Object.keys(config)
    .filter((name) => config[name])
    .sort();

describe('test/support/modules.ts: the modules a test runs with', () => {
  describe('when the test names none', () => {
    it("should switch on the project's modules and off every other folder of modules/ (the example Acme module ships off)", () => {
      const config = moduleConfigFor();
      expect(on(config)).to.deep.equal([...PROJECT_MODULES].sort());
      expect(config.Acme_RecommendationNotes).to.equal(false);
    });

    it('should switch on the modules of a folder the test passes itself', () => {
      expect(moduleConfigFor(undefined, WITH_FIXTURES).Fixture_Ext).to.equal(true);
    });
  });

  describe('when the test names modules', () => {
    it("should add one with true and remove one with false, over the project's", () => {
      const config = moduleConfigFor({ Acme_RecommendationNotes: true, Dispensary_AsynchronousOperations: false });
      expect(on(config)).to.deep.equal(
        [
          ...PROJECT_MODULES.filter((m) => m !== 'Dispensary_AsynchronousOperations'),
          'Acme_RecommendationNotes',
        ].sort(),
      );
      expect(moduleConfigFor({ Fixture_Ext: false }, WITH_FIXTURES).Fixture_Ext).to.equal(false);
    });

    it('should take exactly the modules of a list', () => {
      expect(on(moduleConfigFor(['Dispensary_Store', 'Fixture_Ext'], WITH_FIXTURES))).to.deep.equal([
        'Dispensary_Store',
        'Fixture_Ext',
      ]);
    });

    it('should refuse a module that none of the folders holds, naming the folders', () => {
      expect(() => moduleConfigFor({ Clinic_Missing: true })).to.throw(
        `No module Clinic_Missing in ${PROJECT_MODULE_SOURCES.modulesDir}`,
      );
    });
  });

  describe('TestApp.start', function () {
    this.timeout(60_000);
    let t: TestApp | undefined;
    afterEach(async () => t?.stop());

    /** A product and an empty recommendation; answers Add Items of that product. */
    const itemsOf = async (app: TestApp) => {
      const token = await app.integrationToken({ allStores: true });
      const call = (url: string) => request(app.http).post(url).set('Authorization', `Bearer ${token}`);
      await call('/rest/all/V1/products').send({ product: { sku: 'VIT-D3', name: 'D3', price: 1 } });
      const patient = await call('/rest/default/V1/dispensary/patient').send({
        patient: { firstname: 'A', lastname: 'B', email: 'a@example.com' },
      });
      const created = await call(`/rest/default/V1/dispensary/patient/${patient.body.patient_id}/recommendation`);
      return (qty: number) =>
        call(`/rest/default/V1/dispensary/recommendation/${created.body.recommendation_id}/item`).send({
          recommendation: { items: [{ sku: 'VIT-D3', qty }] },
        });
    };

    it('should run a module of modules/ the test switches on: its plugins, extension attribute and migration', async () => {
      t = await TestApp.start({ modules: { Acme_RecommendationNotes: true } });
      const res = await (await itemsOf(t))(3);
      expect(res.body.extension_attributes).to.deep.include({ noted_item_count: 0 });
      expect(await t.app.knex.schema.hasTable('acme_recommendation_memo')).to.equal(true);
    });

    it('should leave out that module, and its table, when the test names none', async () => {
      t = await TestApp.start();
      const res = await (await itemsOf(t))(3);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.not.have.property('extension_attributes');
      expect(await t.app.knex.schema.hasTable('acme_recommendation_memo')).to.equal(false);
    });

    it('should run the copy of a module the test brings in a folder of its own, not the one in modules/', async () => {
      // Acme_RecommendationNotes again, without plugins: as a reader who copied the guide's module into modules/.
      const tree = ModuleTree.create();
      try {
        tree.module('Acme_RecommendationNotes', { sequence: ['Dispensary_Recommendation'] });
        t = await TestApp.start({ moduleSources: [PROJECT_MODULE_SOURCES, ...tree.sources()] });
        expect(t.app.modules.find((m) => m.name === 'Acme_RecommendationNotes')?.dir).to.equal(
          tree.dir('Acme_RecommendationNotes'),
        );
        const res = await (await itemsOf(t))(3);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.not.have.property('extension_attributes');
      } finally {
        tree.remove();
      }
    });

    it('should refuse modules together with a config file of the test', async () => {
      let error: unknown;
      await TestApp.start({ modules: ['Dispensary_Store'], moduleConfigFile: '/nonexistent/config.json' }).catch(
        (e: unknown) => (error = e),
      );
      expect(String(error)).to.contain('give modules or moduleConfigFile, not both');
    });
  });

  describe('ServerProcess.spawn', function () {
    this.timeout(60_000);
    let database: TestDatabase;
    let server: ServerProcess | undefined;
    beforeEach(async () => (database = await createTestDatabase()));
    afterEach(async () => {
      await server?.stop('SIGKILL');
      await database.release();
    });

    it('should give the server process the modules the test names (MODULE_CONFIG_FILE)', async () => {
      server = ServerProcess.spawn(database.url, await freePort(), {}, ['Dispensary_Store', 'Dispensary_Integration']);
      await server.ready();
      // No route of Dispensary_Recommendation: 404 before any token is asked for.
      expect((await fetch(`${server.url}/rest/V1/dispensary/patient/search`)).status).to.equal(404);
      expect((await fetch(`${server.url}/rest/V1/store/storeViews`)).status).to.equal(401);
    });
  });
});
