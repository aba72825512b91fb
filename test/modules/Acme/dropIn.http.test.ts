/**
 * The drop-in promise: a module folder (module.xml, di.xml with plugins on another module's
 * contract, plugin classes) placed beside the project's modules is picked up with no other change:
 * no registration, no edit of etc/config.json, no code of the project touched.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type { ModuleSources } from '../../../app/framework/module/ModuleLoader.js';
import { DIST_ROOT, PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { ITEM_CONTRACT, startFlow, WITH_NOTES, type Flow } from './support/recommendationFlow.js';

const PROJECT_MODULES: ModuleSources = {
  modulesDir: path.join(PROJECT_ROOT, 'modules'),
  codeDir: path.join(DIST_ROOT, 'modules'),
};

const moduleXml = (name: string, sequence: string[]) => `<?xml version="1.0"?>
<config xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="urn:magento:framework:Module/etc/module.xsd">
    <module name="${name}">
        <sequence>
${sequence.map((m) => `            <module name="${m}"/>`).join('\n')}
        </sequence>
    </module>
</config>
`;

const diXml = (plugins: string) => `<?xml version="1.0"?>
<config xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="urn:magento:framework:ObjectManager/etc/config.xsd">
    <type name="${ITEM_CONTRACT}">
${plugins}
    </type>
</config>
`;

/** The plugin class as an extension author writes it, in TypeScript. */
const STAMP_PLUGIN_TS = `
import type { RecommendationInterface } from '../../../Dispensary/Recommendation/Api/Data/RecommendationInterface.js';
import type { RecommendationItemsRequest } from '../../../Dispensary/Recommendation/Api/Data/RecommendationItemInterface.js';

export class StampRecommendation {
  async beforeAddItems(_subject: unknown, recommendationId: string, recommendation: RecommendationItemsRequest): Promise<[string, RecommendationItemsRequest]> {
    const items = recommendation.items.map((item) => ({ ...item, qty: item.qty * 2 }));
    return [recommendationId, { ...recommendation, items }];
  }

  afterAddItems(_subject: unknown, result: RecommendationInterface): RecommendationInterface {
    const extension = (result.extension_attributes ?? {}) as Record<string, unknown>;
    return { ...result, extension_attributes: { ...extension, stamped_by: 'Acme_DropIn' } };
  }
}
`;

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe('Acme: a module folder dropped in beside the project modules', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'acme-dropin-'));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  describe('when it is written in TypeScript and compiled', () => {
    let flow: Flow;
    before(async () => {
      const modulesDir = path.join(tmp, 'ts', 'modules');
      const codeDir = path.join(tmp, 'ts', 'dist');
      const dir = path.join(modulesDir, 'Acme', 'DropIn');
      write(path.join(dir, 'etc', 'module.xml'), moduleXml('Acme_DropIn', ['Dispensary_Recommendation']));
      write(
        path.join(dir, 'etc', 'di.xml'),
        diXml('        <plugin name="acme_dropin_stamp" type="Acme\\DropIn\\Plugin\\StampRecommendation"/>'),
      );
      write(path.join(dir, 'Plugin', 'StampRecommendation.ts'), STAMP_PLUGIN_TS);
      // What `npm start` does for files under modules/: tsc writes them to the code folder.
      const compiled = ts.transpileModule(STAMP_PLUGIN_TS, {
        compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, experimentalDecorators: true },
        fileName: 'StampRecommendation.ts',
        reportDiagnostics: true,
      });
      expect(compiled.diagnostics ?? []).to.deep.equal([]);
      write(path.join(codeDir, 'Acme', 'DropIn', 'Plugin', 'StampRecommendation.js'), compiled.outputText);
      write(path.join(codeDir, 'package.json'), JSON.stringify({ type: 'module' }));
      // Nothing is registered or enabled by hand: no config entry names it.
      flow = await startFlow({ moduleSources: [PROJECT_MODULES, { modulesDir, codeDir }] });
    });
    after(async () => flow?.t.stop());

    it('should load it and run its plugins over HTTP', async () => {
      const res = await flow.addItems({ recommendation: { items: [{ sku: 'VIT-D3', qty: 3 }] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.items.map((i: { sku: string; qty: number }) => [i.sku, i.qty])).to.deep.equal([['VIT-D3', 6]]);
      expect(res.body.extension_attributes).to.include({ stamped_by: 'Acme_DropIn' });
    });

    it('should list it as enabled and show its plugin in the chain', async () => {
      const status = await flow.t.cli('module:status');
      expect(status.out.map((l) => l.trim())).to.include('Acme_DropIn');
      const chain = await flow.t.cli('dev:plugin:list', ITEM_CONTRACT, 'addItems');
      expect(chain.out.join('\n')).to.include(
        'acme_dropin_stamp::beforeAddItems (Acme\\DropIn\\Plugin\\StampRecommendation',
      );
    });
  });

  describe("when it is plain JavaScript and switches off another module's plugin by name", () => {
    let flow: Flow;
    before(async () => {
      const modulesDir = path.join(tmp, 'js', 'modules');
      const dir = path.join(modulesDir, 'Acme', 'QuietNotes');
      write(path.join(modulesDir, 'package.json'), JSON.stringify({ type: 'module' }));
      // Loads after Acme_RecommendationNotes, so its declaration of the same plugin name wins.
      write(path.join(dir, 'etc', 'module.xml'), moduleXml('Acme_QuietNotes', ['Acme_RecommendationNotes']));
      write(
        path.join(dir, 'etc', 'di.xml'),
        diXml(
          [
            '        <plugin name="acme_recommendation_notes_summary" disabled="true"/>',
            '        <plugin name="acme_quiet_notes_shout" type="Acme\\QuietNotes\\Plugin\\ShoutNotes" sortOrder="15"/>',
          ].join('\n'),
        ),
      );
      write(
        path.join(dir, 'Plugin', 'ShoutNotes.js'),
        `export class ShoutNotes {
  afterAddItems(_subject, result) {
    return { ...result, items: result.items.map((item) => ({ ...item, note: item.note === null ? null : item.note.toUpperCase() })) };
  }
}
`,
      );
      // No compiled folder exists for it: the loader runs the module's own .js files.
      flow = await startFlow({
        moduleSources: [PROJECT_MODULES, { modulesDir, codeDir: path.join(tmp, 'js', 'no-such-dist') }],
        modules: WITH_NOTES,
      });
    });
    after(async () => flow?.t.stop());

    it('should run its plugin and no longer run the one it disabled, while the others still run', async () => {
      const res = await flow.addItems({
        recommendation: { items: [{ sku: 'VIT-D3', qty: 1, note: '  with food  ' }] },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // acme_recommendation_notes_normalise trimmed it, acme_quiet_notes_shout upper-cased it ...
      expect(res.body.items[0].note).to.equal('WITH FOOD');
      // ... and acme_recommendation_notes_summary no longer adds its count.
      expect(res.body).to.not.have.property('extension_attributes');
      const chain = await flow.t.cli('dev:plugin:list', ITEM_CONTRACT, 'addItems');
      const text = chain.out.join('\n');
      expect(text).to.include('acme_quiet_notes_shout::afterAddItems');
      expect(text).to.not.include('acme_recommendation_notes_summary');
    });
  });
});
