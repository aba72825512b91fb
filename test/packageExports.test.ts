/**
 * The runtime's public entry points (package.json `exports`, docs/module-packages.md): the Api of
 * every Dispensary module is exported (a new module's too), and every target is a file the build
 * writes, types and JavaScript.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../app/bootstrap/config/paths.js';

type Target = string | { types: string; default: string };
const { exports } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, Target>;
};

describe('package.json exports: the entry points of a module package', () => {
  it("should export the Api folder of every Dispensary module, and no module's other folders", () => {
    const withApi = readdirSync(path.join(PROJECT_ROOT, 'modules', 'Dispensary'))
      .filter((module) => existsSync(path.join(PROJECT_ROOT, 'modules', 'Dispensary', module, 'Api')))
      .map((module) => `./modules/Dispensary/${module}/Api/*.js`)
      .sort();
    expect(Object.keys(exports).filter((key) => key.startsWith('./modules/'))).to.deep.equal(withApi);
  });

  it('should point every entry at a file the build writes, its types at .d.ts', () => {
    const missing: string[] = [];
    for (const [key, target] of Object.entries(exports)) {
      if (typeof target === 'string' || key.includes('*')) continue;
      for (const file of [target.types, target.default])
        if (!existsSync(path.join(PROJECT_ROOT, file))) missing.push(file);
      expect(target.types, key).to.match(/\.d\.ts$/);
    }
    const api = exports['./modules/Dispensary/Recommendation/Api/*.js'] as { types: string; default: string };
    for (const pattern of [api.types, api.default]) {
      const file = pattern.replace('*', 'RecommendationItemManagementInterface');
      if (!existsSync(path.join(PROJECT_ROOT, file))) missing.push(file);
    }
    expect(missing).to.deep.equal([]);
  });
});
