/**
 * The cycle lint rule (eslint.cycles.js, `layering/cycles`) through ESLint's own API and the
 * project's eslint.config.js: a loop planted in a file linted as if it sat in the tree (the other
 * files are read from disk) fails with the loop named; the tree as it is has none.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ESLint } from 'eslint';
import { PROJECT_ROOT } from '../app/bootstrap/paths.js';

describe('eslint.cycles.js (lint rule layering/cycles)', function () {
  this.timeout(120_000);
  let eslint: ESLint;
  before(() => {
    eslint = new ESLint({ cwd: PROJECT_ROOT, ruleFilter: ({ ruleId }) => ruleId === 'layering/cycles' });
  });

  /** The cycle messages ESLint reports for `code` placed at `file` (project-relative). */
  const cycleErrors = async (file: string, code: string): Promise<string[]> => {
    const [result] = await eslint.lintText(code, { filePath: path.join(PROJECT_ROOT, file) });
    return result!.messages.filter((m) => m.ruleId === 'layering/cycles' && m.severity === 2).map((m) => m.message);
  };
  /** A file of the tree as saved, with `lines` added. */
  const withLines = (file: string, ...lines: string[]): string => `${readFileSync(path.join(PROJECT_ROOT, file), 'utf8')}\n${lines.join('\n')}\n`;

  describe('between files', () => {
    it('should fail an import that closes a loop, naming every file of it', async () => {
      const file = 'app/framework/webapi/RouteTarget.ts';
      const errors = await cycleErrors(file, withLines(file, "import type { FrontController } from './FrontController.js';", 'export type F = FrontController;'));
      expect(errors).to.deep.equal([
        'import cycle: app/framework/webapi/RouteTarget.ts -> app/framework/webapi/FrontController.ts -> app/framework/webapi/RouteTarget.ts',
      ]);
    });

    it('should fail a loop through several files and folders, by re-export or dynamic import too', async () => {
      const file = 'app/framework/xml/xml.ts';
      const errors = await cycleErrors(
        file,
        withLines(file, "export { readModuleConfig } from '../module/ModuleLoader.js';", "export const later = () => import('../config/DiConfig.js');"),
      );
      expect(errors).to.deep.equal([
        'import cycle: app/framework/xml/xml.ts -> app/framework/module/ModuleLoader.ts -> app/framework/xml/xml.ts',
        'import cycle: app/framework/xml/xml.ts -> app/framework/config/DiConfig.ts -> app/framework/xml/xml.ts',
      ]);
    });

    it("should let start-up's listed loop be, but not a new one through another of its files", async () => {
      const application = 'app/bootstrap/Application.ts';
      expect(await cycleErrors(application, readFileSync(path.join(PROJECT_ROOT, application), 'utf8'))).to.deep.equal([]);
      const paths = 'app/bootstrap/paths.ts';
      const errors = await cycleErrors(paths, withLines(paths, "import type { Application } from './Application.js';", 'export type A = Application;'));
      expect(errors).to.deep.equal(['import cycle: app/bootstrap/paths.ts -> app/bootstrap/Application.ts -> app/bootstrap/paths.ts']);
    });
  });

  describe('between folders', () => {
    it('should fail an import back into a folder that imports this one, naming the folders and the import that closes it', async () => {
      const errors = await cycleErrors('app/framework/bulk/Planted.ts', "import { MAX_BULK_SIZE } from '../webapi/AsyncController.js';\nexport const max = MAX_BULK_SIZE;\n");
      expect(errors).to.have.length(1);
      expect(errors[0]).to.match(
        /^import cycle between folders: app\/framework\/bulk -> app\/framework\/webapi -> app\/framework\/bulk \(app\/framework\/webapi\/\w+\.ts imports app\/framework\/bulk\/\w+\.ts\)$/,
      );
    });

    it('should fail an import running back up from a subfolder into its parent', async () => {
      const errors = await cycleErrors('app/framework/logging/Planted.ts', "import type { Logger } from '../index.js';\nexport type L = Logger;\n");
      expect(errors).to.deep.equal([
        'import cycle between folders: app/framework/logging -> app/framework -> app/framework/logging (app/framework/index.ts imports app/framework/logging/logger.ts)',
      ]);
    });

    it('should pass imports that follow the folder order', async () => {
      const code = [
        "import { WebapiException } from '../webapi/WebapiException.js';",
        "import { ConfigError } from '../xml/xml.js';",
        "import { readWebapiConfig } from '../config/WebapiConfig.js';",
        'export const used = [WebapiException, ConfigError, readWebapiConfig];',
      ].join('\n');
      expect(await cycleErrors('app/framework/planted/Planted.ts', code)).to.deep.equal([]);
    });
  });

  it('should find no loop in app/ as it is', async () => {
    const results = await eslint.lintFiles(['app']);
    const found = results.flatMap((r) => r.messages.map((m) => `${path.relative(PROJECT_ROOT, r.filePath)}:${m.line}: ${m.message}`));
    expect(found).to.deep.equal([]);
  });
});
