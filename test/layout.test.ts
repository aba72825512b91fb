/**
 * The layout of the test suite (docs/testing.md): unit tests mirror app/ and modules/, HTTP suites
 * are named `.http.test.ts`. The rule lives in test/support/layout.ts; here it runs over the real
 * tree, and over planted violations to show it can fail.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../app/bootstrap/config/paths.js';
import { diskTree, layoutViolations, mirroredSources, speaksHttp, type Tree } from './support/layout.js';

const files = (folder: string) =>
  readdirSync(path.join(PROJECT_ROOT, folder), { recursive: true, encoding: 'utf8' }).map(
    (f) => `${folder}/${f.split(path.sep).join('/')}`,
  );
const vendors = readdirSync(path.join(PROJECT_ROOT, 'modules'));
const disk = diskTree(PROJECT_ROOT, vendors);

/** The real tree with some files added (or replaced) in memory. */
function planted(extra: Record<string, string>): Tree {
  return {
    exists: (file) => file in extra || disk.exists(file),
    read: (file) => extra[file] ?? disk.read(file),
    vendors: () => vendors,
  };
}

const UNIT = "import { expect } from 'chai';\nit('x', () => expect(1).to.equal(1));\n";
const SUPERTEST = "import request from 'supertest';\nimport { TestApp } from '../../support/testApp.js';\n";
const INJECT =
  "import { TestApp } from '../../support/testApp.js';\nconst t = await TestApp.start();\nawait t.request().get('/');\n";

describe('the layout of test/', () => {
  it('should hold for every test file (docs/testing.md)', () => {
    expect(layoutViolations(files('test'), disk)).to.deep.equal([]);
  });

  it('should have a unit test of its own for the models named in issue 22', () => {
    const models = [
      'modules/Dispensary/Recommendation/Model/ResourceModel/RecommendationResource.ts',
      'modules/Dispensary/Catalog/Model/ProductRepository.ts',
      'modules/Dispensary/Integration/Model/TokenGrants.ts',
      'modules/Dispensary/Integration/Model/Oauth/OauthRequestVerifier.ts',
      'modules/Dispensary/Recommendation/Model/RecommendationItemManagement.ts',
      'modules/Dispensary/Integration/Model/Encryptor.ts',
      'modules/Dispensary/Integration/Model/PasswordHasher.ts',
    ];
    for (const model of models) {
      const test = model.replace(/^modules\/Dispensary\//, 'test/modules/').replace(/\.ts$/, '.test.ts');
      expect(disk.exists(test), test).to.equal(true);
      expect(mirroredSources(test, disk)).to.include(model);
    }
  });

  describe('planted violations', () => {
    it('should refuse a test under test/framework that mirrors no app/ file', () => {
      const file = 'test/framework/db/NoSuchThing.test.ts';
      expect(layoutViolations([file], planted({ [file]: UNIT }))).to.deep.equal([
        `${file}: mirrors no source (looked for app/framework/db/NoSuchThing.ts)`,
      ]);
    });

    it('should accept <Name>.<aspect>.test.ts, and app/bootstrap, app/bin, app/cli in their own folders', () => {
      const ok = [
        'test/framework/db/UnitOfWork.planted.test.ts',
        'test/framework/bootstrap/config/settings.planted.test.ts',
        'test/framework/cli/Cli.planted.test.ts',
      ];
      expect(layoutViolations(ok, planted(Object.fromEntries(ok.map((f) => [f, UNIT]))))).to.deep.equal([]);
    });

    it('should refuse a unit test under test/modules that mirrors no module file', () => {
      const file = 'test/modules/Catalog/Model/Nothing.test.ts';
      const looked = vendors.map((v) => `modules/${v}/Catalog/Model/Nothing.ts`).join(', ');
      expect(layoutViolations([file], planted({ [file]: UNIT }))).to.deep.equal([
        `${file}: mirrors no source (looked for ${looked})`,
      ]);
    });

    it('should refuse a suite that uses supertest without the .http name, and an .http suite without HTTP', () => {
      const hidden = 'test/modules/Catalog/Model/ProductRepository.planted.test.ts';
      const empty = 'test/modules/Catalog/emptyFeature.http.test.ts';
      expect(layoutViolations([hidden, empty], planted({ [hidden]: SUPERTEST, [empty]: UNIT }))).to.deep.equal([
        `${hidden}: goes through HTTP (t.request(), supertest, fetch) but is not named .http.test.ts`,
        `${empty}: named .http.test.ts but sends no HTTP request (t.request(), supertest, fetch)`,
      ]);
    });

    it('should count in-process requests (t.request()) as HTTP, and TestApp alone as not', () => {
      const hidden = 'test/modules/Catalog/Model/ProductRepository.injected.test.ts';
      const named = 'test/modules/Catalog/injected.http.test.ts';
      const cliOnly = 'test/modules/Catalog/Model/ProductRepository.cli.test.ts';
      const tree = planted({
        [hidden]: INJECT,
        [named]: INJECT,
        [cliOnly]: "import { TestApp } from '../../../support/testApp.js';\nawait (await TestApp.start()).cli('x');\n",
      });
      expect(layoutViolations([hidden, named, cliOnly], tree)).to.deep.equal([
        `${hidden}: goes through HTTP (t.request(), supertest, fetch) but is not named .http.test.ts`,
      ]);
    });

    it('should follow helpers by name: an HTTP helper makes a suite HTTP, other exports of its file do not', () => {
      const helper = 'test/modules/Catalog/plantedSupport.ts';
      const text = [
        "import request from 'supertest';",
        'export class Clock { now() { return 1; } }',
        'export function call(app: unknown) { return send(app); }',
        "function send(app: unknown) { return request(app as never).get('/'); }",
        '',
      ].join('\n');
      const viaHelper = 'test/modules/Catalog/Model/ProductRepository.viaHelper.test.ts';
      const clockOnly = 'test/modules/Catalog/Model/ProductRepository.clockOnly.test.ts';
      const tree = planted({
        [helper]: text,
        [viaHelper]: "import { call } from '../plantedSupport.js';\ncall(1);\n",
        [clockOnly]: "import { Clock } from '../plantedSupport.js';\nnew Clock();\n",
      });
      expect(speaksHttp(viaHelper, tree)).to.equal(true);
      expect(speaksHttp(clockOnly, tree)).to.equal(false);
    });

    it('should refuse a test in test/cluster, and one outside the named folders', () => {
      const cluster = 'test/cluster/twoHosts.test.ts';
      const stray = 'test/elsewhere/thing.test.ts';
      expect(layoutViolations([cluster, stray], planted({ [cluster]: UNIT, [stray]: UNIT }))).to.have.length(2);
    });
  });
});
