/**
 * Unit tests of ClassResolver.ts: `Vendor\Module\Path\Name` to the export `Name` of the module's
 * compiled `Path/Name.js`, framework names from the registry, and a ConfigError naming the
 * config file for every way a name can fail to resolve. Uses the compiled fixture modules.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ClassResolver } from '../../../app/framework/di/ClassResolver.js';
import type { ModuleDefinition } from '../../../app/framework/module/ModuleLoader.js';
import { Greeter } from '../../fixtures/runtime/modules/Fixture/Container/Model/Greeter.js';
import { expectConfigError, fixtureCodeDir, fixtureSourceDir } from '../support/moduleTree.js';

function fixtureModule(vendor: string, module: string): ModuleDefinition {
  return {
    name: `${vendor}_${module}`,
    vendor,
    module,
    dir: path.join(fixtureSourceDir('runtime'), vendor, module),
    codeDir: path.join(fixtureCodeDir('runtime'), vendor, module),
    sequence: [],
  };
}

const WHERE = 'modules/Fixture/Container/etc/di.xml';
class FrameworkThing {}

describe('ClassResolver', () => {
  let resolver: ClassResolver;
  beforeEach(() => {
    resolver = new ClassResolver(
      [fixtureModule('Fixture', 'Container'), fixtureModule('Fixture', 'Dispatch')],
      new Map([['Framework\\Thing', FrameworkThing]]),
    );
  });

  it("should load Vendor\\Module\\Path\\Name as the export Name of the module's compiled Path/Name.js", async () => {
    // The very class the test imports: one module instance, so one class identity.
    expect(await resolver.load('Fixture\\Container\\Model\\Greeter', WHERE)).to.equal(Greeter);
    expect(resolver.get('Fixture\\Container\\Model\\Greeter')).to.equal(Greeter);
    expect(resolver.has('Fixture\\Container\\Model\\Greeter')).to.equal(true);
  });

  it('should accept a leading backslash, as di.xml may write it', async () => {
    expect(await resolver.load('\\Fixture\\Container\\Model\\Greeter', WHERE)).to.equal(Greeter);
  });

  it('should answer framework names from the registry, without loading them', async () => {
    expect(resolver.has('Framework\\Thing')).to.equal(true);
    expect(resolver.get('Framework\\Thing')).to.equal(FrameworkThing);
    expect(await resolver.load('Framework\\Thing', WHERE)).to.equal(FrameworkThing);
  });

  it('should tell a name never loaded from one loaded, and name the value a loaded name holds', async () => {
    expect(resolver.has('Fixture\\Container\\Model\\Greeter')).to.equal(false);
    expect(() => resolver.get('Fixture\\Container\\Model\\Greeter')).to.throw(
      'Class Fixture\\Container\\Model\\Greeter was not loaded at start-up',
    );
    expect(resolver.nameOf(Greeter)).to.equal(undefined);
    await resolver.load('Fixture\\Container\\Model\\Greeter', WHERE);
    expect(resolver.nameOf(Greeter)).to.equal('Fixture\\Container\\Model\\Greeter');
    expect(resolver.nameOf(FrameworkThing)).to.equal(undefined);
  });

  it('should refuse names that are not Vendor\\Module\\Path\\Name, naming the file that used them', async () => {
    for (const name of [
      'Greeter',
      'Fixture\\Greeter',
      'Fixture\\Container\\Model\\Greeter.js',
      'Fixture\\Container\\9Model\\Greeter',
      'Fixture\\\\Container\\Greeter',
    ]) {
      await expectConfigError(
        () => resolver.load(name, WHERE),
        WHERE,
        `"${name}" is not a class name of the form Vendor\\Module\\Path\\Name`,
      );
    }
  });

  it('should refuse a class of a module that is not enabled', async () => {
    await expectConfigError(
      () => resolver.load('Fixture\\Missing\\Model\\Greeter', WHERE),
      `${WHERE}: class Fixture\\Missing\\Model\\Greeter does not resolve: module Fixture_Missing is not enabled`,
    );
  });

  it('should refuse a class whose file does not exist, naming the file', async () => {
    await expectConfigError(
      () => resolver.load('Fixture\\Container\\Model\\Nobody', WHERE),
      `${WHERE}: class Fixture\\Container\\Model\\Nobody does not resolve: no file`,
      path.join('Fixture', 'Container', 'Model', 'Nobody.js'),
      'was the project built?',
    );
  });

  it('should refuse a file that does not export the class under its name', async () => {
    await expectConfigError(
      () => resolver.load('Fixture\\Dispatch\\Model\\WrongExport', WHERE),
      `${WHERE}: class Fixture\\Dispatch\\Model\\WrongExport does not resolve:`,
      `${path.join('Fixture', 'Dispatch', 'Model', 'WrongExport.js')} has no export "WrongExport"`,
    );
  });

  it('should remember a failed load as not loaded', async () => {
    await expectConfigError(() => resolver.load('Fixture\\Container\\Model\\Nobody', WHERE), 'no file');
    expect(resolver.has('Fixture\\Container\\Model\\Nobody')).to.equal(false);
  });
});

describe('ClassResolver: a file resolved again by another start', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'class-resolver-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const module = (): ModuleDefinition => ({
    name: 'Acme_Late',
    vendor: 'Acme',
    module: 'Late',
    dir,
    codeDir: dir,
    sequence: [],
  });

  it('should answer the same class to every resolver, refuse it once its file is gone, and fail a failing file each time', async () => {
    mkdirSync(path.join(dir, 'Model'));
    writeFileSync(path.join(dir, 'Model', 'Thing.js'), 'export class Thing {}\n');
    writeFileSync(path.join(dir, 'Model', 'Broken.js'), "throw new Error('Broken.js fails on import');\n");
    const first = await new ClassResolver([module()]).load('Acme\\Late\\Model\\Thing', WHERE);
    expect(await new ClassResolver([module()]).load('Acme\\Late\\Model\\Thing', WHERE)).to.equal(first);
    rmSync(path.join(dir, 'Model', 'Thing.js'));
    await expectConfigError(
      () => new ClassResolver([module()]).load('Acme\\Late\\Model\\Thing', WHERE),
      `${WHERE}: class Acme\\Late\\Model\\Thing does not resolve: no file ${path.relative(process.cwd(), path.join(dir, 'Model', 'Thing.js'))}`,
    );
    for (let i = 0; i < 2; i++) {
      let failed: unknown;
      await new ClassResolver([module()])
        .load('Acme\\Late\\Model\\Broken', WHERE)
        .catch((error: unknown) => (failed = error));
      expect((failed as Error).message).to.equal('Broken.js fails on import');
    }
  });
});
