/**
 * The one place every etc/*.xml reader gets its files from: which files, in which order (every
 * module's global file in load order, then every module's area file), parsed one at a time.
 */
import path from 'node:path';
import { expect } from 'chai';
import {
  moduleXmlFile,
  moduleXmlPaths,
  readModuleXmlFiles,
  type ModuleXmlFile,
} from '../../../app/framework/config/moduleXmlFiles.js';
import { loadModules, type ModuleDefinition } from '../../../app/framework/module/ModuleLoader.js';
import { ModuleTree, configXml, expectConfigError } from '../support/moduleTree.js';

describe('moduleXmlFiles (module XML files per area)', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create();
  });
  afterEach(() => tree.remove());

  const modules = (): ModuleDefinition[] => loadModules(tree.sources(), tree.configFile);
  /** `Vendor_Module:etc/...` of each path, to compare orders at a glance. */
  const named = (found: readonly { module: ModuleDefinition; file: string }[]) =>
    found.map(({ module, file }) => `${module.name}:${path.relative(module.dir, file).split(path.sep).join('/')}`);

  describe('when modules have global and area files', () => {
    beforeEach(() => {
      // Load order Acme_Base, Acme_Mid, Acme_Top (sequence), whatever the folder order.
      const files = (...names: string[]) => Object.fromEntries(names.map((name) => [name, configXml('')]));
      tree.module('Acme_Top', { sequence: ['Acme_Mid'], files: files('etc/events.xml', 'etc/webapi_rest/events.xml') });
      tree.module('Acme_Mid', { sequence: ['Acme_Base'], files: files('etc/webapi_rest/events.xml') });
      tree.module('Acme_Base', { files: files('etc/events.xml', 'etc/crontab/events.xml') });
    });

    it('should answer every global file in module load order, skipping modules without one', () => {
      const found = named(moduleXmlPaths(modules(), 'events.xml'));
      expect(found).to.deep.equal(['Acme_Base:etc/events.xml', 'Acme_Top:etc/events.xml']);
    });

    it("should answer an area's files after all the global ones, in module load order", () => {
      expect(named(moduleXmlPaths(modules(), 'events.xml', 'webapi_rest'))).to.deep.equal([
        'Acme_Base:etc/events.xml',
        'Acme_Top:etc/events.xml',
        'Acme_Mid:etc/webapi_rest/events.xml',
        'Acme_Top:etc/webapi_rest/events.xml',
      ]);
    });

    it("should name one module's file of exactly one area, or nothing", () => {
      const base = modules().find((m) => m.name === 'Acme_Base')!;
      expect(moduleXmlFile(base, 'events.xml')).to.equal(path.join(base.dir, 'etc', 'events.xml'));
      const crontab = path.join(base.dir, 'etc', 'crontab', 'events.xml');
      expect(moduleXmlFile(base, 'events.xml', 'crontab')).to.equal(crontab);
      expect(moduleXmlFile(base, 'events.xml', 'webapi_rest')).to.equal(undefined);
    });

    it('should parse the files in the same order', () => {
      const read = [...readModuleXmlFiles(modules(), 'events.xml', { area: 'webapi_rest', root: 'config' })];
      expect(named(read)).to.deep.equal(named(moduleXmlPaths(modules(), 'events.xml', 'webapi_rest')));
      expect(read.map((file) => file.root.name)).to.deep.equal(['config', 'config', 'config', 'config']);
    });
  });

  describe('when a file is wrong', () => {
    it('should fail on a root element other than the one asked for, naming the file', async () => {
      tree.module('Acme_Base', { files: { 'etc/webhooks.xml': '<?xml version="1.0"?>\n<hooks/>\n' } });
      await expectConfigError(
        () => [...readModuleXmlFiles(modules(), 'webhooks.xml', { root: 'config' })],
        path.join('Acme', 'Base', 'etc', 'webhooks.xml'),
        'the root element must be <config>',
      );
    });

    it('should parse a file only when the reader reaches it, so an earlier file is merged first', () => {
      tree.module('Acme_Base', { files: { 'etc/acl.xml': configXml('') } });
      tree.module('Acme_Next', { sequence: ['Acme_Base'], files: { 'etc/acl.xml': '<config><unclosed></config>' } });
      const files = readModuleXmlFiles(modules(), 'acl.xml');
      expect(named([files.next().value as ModuleXmlFile])).to.deep.equal(['Acme_Base:etc/acl.xml']);
      expect(() => files.next()).to.throw(/Acme.Next.etc.acl\.xml:\d+: malformed XML/);
    });
  });
});
