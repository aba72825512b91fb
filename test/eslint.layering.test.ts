/**
 * The layering lint rule (eslint.layering.js) through ESLint's own API and the project's
 * eslint.config.js: small files that break the layering, linted as if they sat in the tree. And,
 * sharing its ESLint, the config's guard against TypeScript 7's `new (f() as T).X()` emit bug.
 */
import path from 'node:path';
import { expect } from 'chai';
import { ESLint } from 'eslint';
import { PROJECT_ROOT } from '../app/bootstrap/config/paths.js';

describe('eslint.layering.js (lint rule layering/imports)', function () {
  this.timeout(60_000);
  let eslint: ESLint;
  before(() => {
    eslint = new ESLint({ cwd: PROJECT_ROOT });
  });

  /** The layering messages ESLint reports for `code` placed at `file` (project-relative). */
  const layeringErrors = async (file: string, code: string): Promise<string[]> => {
    const [result] = await eslint.lintText(code, { filePath: path.join(PROJECT_ROOT, file) });
    return result!.messages.filter((m) => m.ruleId === 'layering/imports' && m.severity === 2).map((m) => m.message);
  };

  describe('in app/framework', () => {
    const FILE = 'app/framework/db/Example.ts';

    it('should fail an import from modules/', async () => {
      const errors = await layeringErrors(
        FILE,
        "import { StoreRepositoryInterface } from '../../../modules/Dispensary/Store/Api/StoreRepositoryInterface.js';\nexport const store = StoreRepositoryInterface;\n",
      );
      expect(errors).to.deep.equal([
        'app/framework must not import from modules/: the runtime knows modules only through their etc/*.xml',
      ]);
    });

    it('should fail imports, re-exports and dynamic imports from app/bootstrap, app/cli and app/bin', async () => {
      const errors = await layeringErrors(
        FILE,
        [
          "import type { Application } from '../../bootstrap/Application.js';",
          "export { runCli } from '../../cli/Cli.js';",
          "export const server = (): Promise<unknown> => import('../../bin/server.js');",
          'export type App = Application;',
        ].join('\n'),
      );
      expect(errors).to.deep.equal([
        'app/framework must not import from app/bootstrap/: it is built on the framework, not the other way round',
        'app/framework must not import from app/cli/: it is built on the framework, not the other way round',
        'app/framework must not import from app/bin/: it is built on the framework, not the other way round',
      ]);
    });

    it('should fail an import of the web API from db/ and exception/', async () => {
      const line =
        "import { WebapiException } from '../webapi/WebapiException.js';\nexport const e = WebapiException;\n";
      expect(await layeringErrors(FILE, line)).to.deep.equal([
        'app/framework/db/ must not import from app/framework/webapi/: the web API maps domain errors to HTTP at the edge',
      ]);
      expect(await layeringErrors('app/framework/exception/Example.ts', line)).to.deep.equal([
        'app/framework/exception/ must not import from app/framework/webapi/: the web API maps domain errors to HTTP at the edge',
      ]);
    });

    it('should pass imports within the framework', async () => {
      expect(
        await layeringErrors(
          FILE,
          "export { parseDatabaseUrl } from './dialect.js';\nexport { loadModules } from '../module/ModuleLoader.js';\n",
        ),
      ).to.deep.equal([]);
    });
  });

  describe('in a module', () => {
    const FILE = 'modules/Dispensary/Recommendation/Model/ResourceModel/Example.ts';

    it("should fail an import of another module's Model, judged by where the path lands", async () => {
      const errors = await layeringErrors(
        FILE,
        [
          "import { ProductRepository } from '../../../Catalog/Model/ProductRepository.js';",
          "import { TokenService } from '../../../../Dispensary/Integration/Model/IntegrationTokenService.js';",
          'export const used = [ProductRepository, TokenService];',
        ].join('\n'),
      );
      expect(errors).to.deep.equal([
        'Dispensary_Recommendation may import Dispensary_Catalog only through its Api/ folder, not Model/ProductRepository.js',
        'Dispensary_Recommendation may import Dispensary_Integration only through its Api/ folder, not Model/IntegrationTokenService.js',
      ]);
    });

    it('should fail an import of the runtime from app/ instead of #framework', async () => {
      const errors = await layeringErrors(
        FILE,
        "import { ConnectionProvider } from '../../../../../app/framework/db/ConnectionProvider.js';\nexport const c = ConnectionProvider;\n",
      );
      expect(errors).to.deep.equal([
        "Dispensary_Recommendation must import the runtime through '#framework', not from app/ (everything deeper is internal)",
      ]);
    });

    it("should pass another module's Api/, its own folders and #framework", async () => {
      const code = [
        "import { ProductRepositoryInterface } from '../../../Catalog/Api/ProductRepositoryInterface.js';",
        "import { RECOMMENDATION_COLUMNS } from '../../Setup/columns.js';",
        "import { ConnectionProvider } from '#framework';",
        'export const used = [ProductRepositoryInterface, RECOMMENDATION_COLUMNS, ConnectionProvider];',
      ].join('\n');
      expect(await layeringErrors(FILE, code)).to.deep.equal([]);
    });
  });

  describe('eslint.config.js: a type assertion around a call in a `new` callee (TypeScript 7 drops its parentheses)', () => {
    const restricted = async (code: string): Promise<number[]> => {
      const [result] = await eslint.lintText(code, {
        filePath: path.join(PROJECT_ROOT, 'app/framework/db/Example.ts'),
      });
      return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.line);
    };

    it('should fail `new (f() as T).X()`, `new (f() satisfies T).X()` and `new (f().X as T)()`, and pass the class taken out first', async () => {
      const lines = await restricted(
        [
          'declare function f(): { X: new () => object };',
          'export const a = new (f() as ReturnType<typeof f>).X();',
          'export const b = new (f() satisfies ReturnType<typeof f>).X();',
          'export const c = new (f().X as new () => object)();',
          'const C = f().X as new () => object;',
          'export const d = new C();',
          'export const e = new Map([1].map((n) => [n, n] as [number, number]));',
        ].join('\n'),
      );
      expect(lines).to.deep.equal([2, 3, 4]);
    });
  });
});
