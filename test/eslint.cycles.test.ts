/**
 * The cycle lint rule (eslint.cycles.js, `layering/cycles`) through ESLint's own API and the
 * project's eslint.config.js: a loop planted in a file linted as if it sat in the tree (the other
 * files are read from disk) fails with the loop named, in app/ and in modules/; a declared
 * parent-child folder pair may import each other, and only that pair; the tree as it is has none.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ESLint } from 'eslint';
import { PROJECT_ROOT } from '../app/bootstrap/config/paths.js';

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
  const saved = (file: string): string => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
  const withLines = (file: string, ...lines: string[]): string => `${saved(file)}\n${lines.join('\n')}\n`;
  /** The message of a file loop through `files` (under app/framework/ unless they start with app/). */
  const fileLoop = (...files: string[]): string =>
    `import cycle: ${files.map((f) => (f.startsWith('app/') ? f : `app/framework/${f}`)).join(' -> ')}`;

  describe('between files', () => {
    it('should fail an import that closes a loop, naming every file of it', async () => {
      const file = 'app/framework/webapi/RequestProcessorInterface.ts';
      const code = withLines(
        file,
        "import type { FrontController } from './FrontController.js';",
        'export type F = FrontController;',
      );
      const errors = await cycleErrors(file, code);
      expect(errors).to.deep.equal([
        fileLoop(
          'webapi/RequestProcessorInterface.ts',
          'webapi/FrontController.ts',
          'webapi/RequestProcessorInterface.ts',
        ),
      ]);
    });

    it('should fail a loop through several files and folders, by re-export or dynamic import too', async () => {
      const file = 'app/framework/xml/xml.ts';
      const errors = await cycleErrors(
        file,
        withLines(
          file,
          "export { readModuleConfig } from '../module/ModuleLoader.js';",
          "export const later = () => import('../config/DiConfig.js');",
        ),
      );
      expect(errors).to.deep.equal([
        fileLoop('xml/xml.ts', 'module/ModuleLoader.ts', 'xml/xml.ts'),
        fileLoop('xml/xml.ts', 'config/DiConfig.ts', 'xml/xml.ts'),
      ]);
    });

    it('should fail the HTTP app importing the Application back (start-up has no listed loop left)', async () => {
      const application = 'app/bootstrap/Application.ts';
      expect(await cycleErrors(application, saved(application))).to.deep.equal([]);
      const httpApp = 'app/bootstrap/http/HttpApp.ts';
      const code = withLines(
        httpApp,
        "import type { Application } from '../Application.js';",
        'export type A = Application;',
      );
      const errors = await cycleErrors(httpApp, code);
      expect(errors).to.deep.equal([
        fileLoop('app/bootstrap/http/HttpApp.ts', 'app/bootstrap/Application.ts', 'app/bootstrap/http/HttpApp.ts'),
      ]);
    });
  });

  describe('between folders', () => {
    it('should fail the folders of app/bootstrap importing back up (config/ a phase file, a phase a file at the top), with no file loop', async () => {
      const errorsOf = async (file: string, line: string) =>
        (await cycleErrors(file, withLines(file, line, 'export const planted = 1;'))).filter((e) =>
          e.startsWith('import cycle between folders'),
        );
      const upFromConfig = await errorsOf(
        'app/bootstrap/config/settings.ts',
        "export { failedBuild } from '../startup/buildState.js';",
      );
      expect(upFromConfig).to.have.length(1);
      expect(upFromConfig[0]).to.match(
        /^import cycle between folders: app\/bootstrap\/config -> app\/bootstrap\/startup -> /,
      );
      const startupToTop = await errorsOf(
        'app/bootstrap/startup/buildState.ts',
        "export { guardProcess } from '../processGuard.js';",
      );
      expect(startupToTop).to.have.length(1);
      expect(startupToTop[0]).to.match(/^import cycle between folders: app\/bootstrap\/startup -> app\/bootstrap -> /);
    });

    it('should fail an import into a folder that imports this one, naming both and the import back', async () => {
      const code =
        "import { MAX_BULK_SIZE } from '../webapi-async/AsynchronousRequestProcessor.js';\nexport const max = MAX_BULK_SIZE;";
      const errors = await cycleErrors('app/framework/bulk/Planted.ts', code);
      expect(errors).to.have.length(1);
      const loop =
        'import cycle between folders: app/framework/bulk -> app/framework/webapi-async -> app/framework/bulk';
      const closing = String.raw`\(app/framework/webapi-async/\w+\.ts imports app/framework/bulk/\w+\.ts\)`;
      expect(errors[0]).to.match(new RegExp(`^${loop} ${closing}$`));
    });

    it('should fail the web layer importing the async web API (issue 28: async is not part of webapi/)', async () => {
      const code =
        "import { MAX_BULK_SIZE } from '../webapi-async/AsynchronousRequestProcessor.js';\nexport const m = MAX_BULK_SIZE;";
      const errors = await cycleErrors('app/framework/webapi/Planted.ts', code);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.match(
        /^import cycle between folders: app\/framework\/webapi -> app\/framework\/webapi-async -> app\/framework\/webapi /,
      );
    });

    it('should fail an import running back up from a subfolder into its parent', async () => {
      const code = "import type { Logger } from '../index.js';\nexport type L = Logger;\n";
      const errors = await cycleErrors('app/framework/logging/Planted.ts', code);
      expect(errors).to.deep.equal([
        'import cycle between folders: app/framework/logging -> app/framework -> app/framework/logging' +
          ' (app/framework/index.ts imports app/framework/logging/logger.ts)',
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

  describe('in modules/', () => {
    const INTEGRATION = 'modules/Dispensary/Integration/Model';

    it('should fail a module folder importing back from a folder that imports it (a contract importing its model)', async () => {
      const file = 'modules/Dispensary/Webhooks/Api/Planted.ts';
      const code = "export type { WebhookManagement } from '../Model/WebhookManagement.js';\n";
      const errors = await cycleErrors(file, code);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.match(
        /^import cycle between folders: modules\/Dispensary\/Webhooks\/Api -> modules\/Dispensary\/Webhooks\/Model -> modules\/Dispensary\/Webhooks\/Api \(modules\/Dispensary\/Webhooks\/Model\/\w+\.ts imports modules\/Dispensary\/Webhooks\/Api\/\w+\.ts\)$/,
      );
    });

    it('should fail an import loop between two files of a module', async () => {
      const file = 'modules/Dispensary/Webhooks/Model/UrlPolicy.ts';
      const code = withLines(
        file,
        "import type { WebhookTransport } from './WebhookTransport.js';",
        'export type T = WebhookTransport;',
      );
      expect(await cycleErrors(file, code)).to.deep.equal([
        'import cycle: modules/Dispensary/Webhooks/Model/UrlPolicy.ts -> modules/Dispensary/Webhooks/Model/WebhookTransport.ts -> modules/Dispensary/Webhooks/Model/UrlPolicy.ts',
      ]);
    });

    it('should pass the declared parent-child pair importing each other (Integration/Model and Model/Oauth)', async () => {
      const file = `${INTEGRATION}/Oauth/OauthRequestVerifier.ts`;
      expect(await cycleErrors(file, saved(file))).to.deep.equal([]);
      const parent = `${INTEGRATION}/TokenAuthorization.ts`;
      expect(await cycleErrors(parent, saved(parent))).to.deep.equal([]);
    });

    it('should fail the same pair once it is no longer declared', async () => {
      const undeclared = new ESLint({
        cwd: PROJECT_ROOT,
        ruleFilter: ({ ruleId }) => ruleId === 'layering/cycles',
        overrideConfig: {
          files: ['modules/**/*.ts'],
          rules: { 'layering/cycles': ['error', { roots: ['app', 'modules', 'test/fixtures'] }] },
        },
      });
      const file = `${INTEGRATION}/Oauth/OauthRequestVerifier.ts`;
      const [result] = await undeclared.lintText(saved(file), { filePath: path.join(PROJECT_ROOT, file) });
      const messages = result!.messages.map((m) => m.message);
      expect(messages).to.have.length.above(0);
      expect(messages[0]).to.match(
        new RegExp(`^import cycle between folders: ${INTEGRATION}/Oauth -> ${INTEGRATION} -> ${INTEGRATION}/Oauth `),
      );
    });

    it('should still fail a loop through the declared pair and a third folder', async () => {
      // Model/Purge imports the parent (LoginFailurePurger reads LoginFailureLog): the child importing Purge closes a loop.
      const file = `${INTEGRATION}/Oauth/Planted.ts`;
      const code =
        "import type { LoginFailurePurger } from '../Purge/LoginFailurePurger.js';\nexport type P = LoginFailurePurger;\n";
      expect(await cycleErrors(file, code)).to.deep.equal([
        `import cycle between folders: ${INTEGRATION} -> ${INTEGRATION}/Purge -> ${INTEGRATION}` +
          ` (${INTEGRATION}/Purge/LoginFailurePurger.ts imports ${INTEGRATION}/LoginFailureLog.ts)`,
      ]);
    });

    it('should refuse a declared pair whose child is not inside its parent', async () => {
      const misdeclared = new ESLint({
        cwd: PROJECT_ROOT,
        ruleFilter: ({ ruleId }) => ruleId === 'layering/cycles',
        overrideConfig: {
          files: ['modules/**/*.ts'],
          rules: {
            'layering/cycles': [
              'error',
              { roots: ['modules'], parentChildFolders: [[INTEGRATION, 'modules/Dispensary/Webhooks/Model']] },
            ],
          },
        },
      });
      const file = `${INTEGRATION}/TokenAuthorization.ts`;
      const linted = misdeclared.lintText(saved(file), { filePath: path.join(PROJECT_ROOT, file) });
      await linted.then(
        () => expect.fail('a pair that is no parent and child was taken'),
        (error: Error) => expect(error.message).to.contain('is not a folder inside'),
      );
    });
  });

  it('should find no loop in app/, modules/ and the fixture modules as they are', async () => {
    const results = await eslint.lintFiles(['app', 'modules', 'test/fixtures']);
    const where = (file: string) => path.relative(PROJECT_ROOT, file);
    const found = results.flatMap((r) => r.messages.map((m) => `${where(r.filePath)}:${m.line}: ${m.message}`));
    expect(found).to.deep.equal([]);
  });
});
