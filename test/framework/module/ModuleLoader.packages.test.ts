/**
 * Modules installed as npm packages (docs/module-packages.md): which packages of a node_modules
 * folder are modules, how they are enabled, ordered and refused, and what module:status,
 * module:enable and setup:di:compile say about them. The whole life of a real package (built,
 * packed, installed with npm, served) is test/packages/modulePackage.e2e.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { packageSourcesIn, runtimeVersion } from '../../../app/bootstrap/config/moduleLocations.js';
import { PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { compileDi } from '../../../app/framework/compile/DiCompiler.js';
import {
  discoverModules,
  findModulePackages,
  loadModules,
  type ModuleSources,
} from '../../../app/framework/module/ModuleLoader.js';
import { ModuleTree, expectConfigError, moduleXml } from '../support/moduleTree.js';

describe('Module packages in node_modules', () => {
  let tree: ModuleTree;
  let nodeModules: string;
  beforeEach(() => {
    tree = ModuleTree.create();
    nodeModules = mkdtempSync(path.join(os.tmpdir(), 'node-modules-'));
  });
  afterEach(async () => {
    await tree.dispose();
    rmSync(nodeModules, { recursive: true, force: true });
  });

  /** Writes node_modules/<name> with a package.json (`dispensary` unless null) and, for a module, etc/module.xml. */
  function writePackage(
    name: string,
    options: {
      module?: string;
      runtime?: string;
      sequence?: string[];
      version?: string;
      extra?: Record<string, unknown>;
      field?: boolean;
    } = {},
  ): string {
    const dir = path.join(nodeModules, ...name.split('/'));
    mkdirSync(path.join(dir, 'etc'), { recursive: true });
    const json: Record<string, unknown> = { name, version: options.version ?? '1.2.3', ...options.extra };
    if (options.module && options.field !== false)
      json.dispensary = { module: options.module, runtime: options.runtime ?? '^0.1.0' };
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify(json));
    if (options.module) writeFileSync(path.join(dir, 'etc', 'module.xml'), moduleXml(options.module, options.sequence));
    return dir;
  }

  const sources = (): ModuleSources[] => [...tree.sources(), ...packageSourcesIn(nodeModules)];

  it('should find only the packages that declare a module, top-level and scoped', () => {
    writePackage('left-pad');
    writePackage('acme-limits', { module: 'Acme_Limits' });
    writePackage('@acme/notes', { module: 'Acme_Notes' });
    writePackage('@acme/helpers');
    expect(findModulePackages(nodeModules)).to.deep.equal([
      path.join(nodeModules, '@acme', 'notes'),
      path.join(nodeModules, 'acme-limits'),
    ]);
    const found = discoverModules(packageSourcesIn(nodeModules));
    expect(found.map((m) => [m.name, m.package?.name, m.package?.version, m.dir, m.codeDir])).to.deep.equal([
      [
        'Acme_Notes',
        '@acme/notes',
        '1.2.3',
        path.join(nodeModules, '@acme', 'notes'),
        path.join(nodeModules, '@acme', 'notes'),
      ],
      [
        'Acme_Limits',
        'acme-limits',
        '1.2.3',
        path.join(nodeModules, 'acme-limits'),
        path.join(nodeModules, 'acme-limits'),
      ],
    ]);
  });

  it('should read the compiled code from dispensary.code', () => {
    const dir = writePackage('acme-limits', { module: 'Acme_Limits' });
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({
        name: 'acme-limits',
        version: '1.0.0',
        dispensary: { module: 'Acme_Limits', runtime: '*', code: 'dist' },
      }),
    );
    expect(discoverModules(packageSourcesIn(nodeModules))[0]!.codeDir).to.equal(path.join(dir, 'dist'));
  });

  it('should refuse a package with the keyword but no dispensary field, saying what to add', async () => {
    writePackage('acme-limits', { module: 'Acme_Limits', field: false, extra: { keywords: ['dispensary-module'] } });
    await expectConfigError(
      () => findModulePackages(nodeModules),
      path.join(nodeModules, 'acme-limits', 'package.json'),
      'no "dispensary" field',
      '"module": "Vendor_Module"',
    );
  });

  it('should refuse a package whose etc/module.xml names another module, or whose range is no semver range', async () => {
    const dir = writePackage('acme-limits', { module: 'Acme_Limits' });
    writeFileSync(path.join(dir, 'etc', 'module.xml'), moduleXml('Acme_Other'));
    await expectConfigError(
      () => discoverModules(packageSourcesIn(nodeModules)),
      'module name "Acme_Other" does not match dispensary.module "Acme_Limits"',
    );
    writePackage('acme-limits', { module: 'Acme_Limits', runtime: 'soon' });
    await expectConfigError(
      () => discoverModules(packageSourcesIn(nodeModules)),
      `${path.join(dir, 'package.json')}: "dispensary".runtime must be a semver range`,
    );
  });

  it('should keep an installed package disabled until the config enables it', async () => {
    tree.module('Fixture_Base');
    writePackage('acme-limits', { module: 'Acme_Limits' });
    expect(loadModules(sources(), tree.configFile).map((m) => m.name)).to.deep.equal(['Fixture_Base']);
    let run = await tree.cli(['module:status'], { moduleSources: sources() });
    expect(run.out).to.deep.equal([
      'Enabled modules (in load order):',
      '  Fixture_Base',
      'Disabled modules:',
      `  Acme_Limits  acme-limits@1.2.3 (${path.relative(process.cwd(), path.join(nodeModules, 'acme-limits'))})`,
    ]);
    run = await tree.cli(['module:enable', 'Acme_Limits'], { moduleSources: sources() });
    expect(run.code, run.err.join('\n')).to.equal(0);
    expect(loadModules(sources(), tree.configFile).map((m) => m.name)).to.deep.equal(['Acme_Limits', 'Fixture_Base']);
  });

  it('should order by <sequence> across modules/ and packages, both ways', () => {
    tree.module('Zed_Base').module('Aaa_Top', { sequence: ['Acme_Limits'] });
    writePackage('acme-limits', { module: 'Acme_Limits', sequence: ['Zed_Base'] });
    tree.setEnabled('Acme_Limits', true);
    expect(loadModules(sources(), tree.configFile).map((m) => m.name)).to.deep.equal([
      'Zed_Base',
      'Acme_Limits',
      'Aaa_Top',
    ]);
  });

  it('should stop start-up on an enabled package made for another runtime version, naming the package, its range and the runtime version', async () => {
    tree.module('Fixture_Base');
    writePackage('acme-limits', { module: 'Acme_Limits', runtime: '^9.0.0' });
    // Disabled, it stops nothing.
    await tree.boot('global', { moduleSources: sources() });
    tree.setEnabled('Acme_Limits', true);
    await expectConfigError(
      () => tree.boot('global', { moduleSources: sources() }),
      'Package acme-limits@1.2.3',
      'supports dispensary-runtime ^9.0.0',
      `but this runtime is ${runtimeVersion()}`,
    );
    const run = await tree.cli(['module:status'], { moduleSources: sources() });
    expect(run.out[0]).to.contain('start-up refuses them: Package acme-limits@1.2.3');
  });

  it('should refuse module:enable of a package made for another runtime version, changing nothing', async () => {
    tree.module('Fixture_Base');
    writePackage('acme-limits', { module: 'Acme_Limits', runtime: '<0.1.0' });
    const run = await tree.cli(['module:enable', 'Acme_Limits'], { moduleSources: sources() });
    expect(run.code).to.not.equal(0);
    expect(run.err.join('\n')).to.contain('supports dispensary-runtime <0.1.0');
    expect(loadModules(sources(), tree.configFile).map((m) => m.name)).to.deep.equal(['Fixture_Base']);
  });

  it('should refuse a module that is both in modules/ and a package, naming both places', async () => {
    tree.module('Acme_Limits');
    writePackage('acme-limits', { module: 'Acme_Limits' });
    await expectConfigError(
      () => tree.boot('global', { moduleSources: sources() }),
      `Module Acme_Limits is declared twice: ${tree.dir('Acme_Limits')} and package acme-limits@1.2.3 in ${path.join(nodeModules, 'acme-limits')}`,
    );
  });

  it('should list a package that ships no .d.ts as not checked by setup:di:compile', () => {
    const dir = writePackage('acme-limits', { module: 'Acme_Limits' });
    writeFileSync(path.join(dir, 'etc', 'di.xml'), '<?xml version="1.0"?>\n<config/>\n');
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'generated-'));
    try {
      const result = compileDi({
        projectRoot: PROJECT_ROOT,
        modulesDirs: [tree.modulesDir],
        packageSources: packageSourcesIn(nodeModules),
        outDir,
      });
      expect(result.unchecked).to.deep.equal([
        `Acme_Limits (package acme-limits@1.2.3 in ${dir}): the package ships no .d.ts types`,
      ]);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
