import { expect } from 'chai';
import { loadModules } from '../../../app/framework/module/ModuleLoader.js';
import { ModuleTree, configXml, expectConfigError } from '../support/moduleTree.js';

describe('ModuleLoader', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create();
  });
  afterEach(() => tree.remove());

  const load = () => loadModules(tree.sources(), tree.configFile).map((m) => m.name);

  describe('when modules declare a sequence', () => {
    it('should load every module after the modules it depends on', () => {
      tree
        .module('Acme_Checkout', { sequence: ['Acme_Sales', 'Acme_Catalog'] })
        .module('Acme_Sales', { sequence: ['Acme_Catalog'] })
        .module('Acme_Catalog', { sequence: ['Zed_Core'] })
        .module('Zed_Core');
      const order = load();
      expect(order).to.have.members(['Acme_Checkout', 'Acme_Sales', 'Acme_Catalog', 'Zed_Core']);
      const before = (a: string, b: string) =>
        expect(order.indexOf(a), `${a} before ${b}`).to.be.lessThan(order.indexOf(b));
      before('Zed_Core', 'Acme_Catalog');
      before('Acme_Catalog', 'Acme_Sales');
      before('Acme_Sales', 'Acme_Checkout');
      before('Acme_Catalog', 'Acme_Checkout');
    });

    it('should order modules without a dependency between them alphabetically', () => {
      tree.module('Mid_Beta').module('Zed_Alpha').module('Abc_Gamma').module('Mid_Alpha');
      expect(load()).to.deep.equal(['Abc_Gamma', 'Mid_Alpha', 'Mid_Beta', 'Zed_Alpha']);
    });

    it('should give the same order whatever order the folders are created in', () => {
      const other = ModuleTree.create();
      try {
        tree
          .module('B_One', { sequence: ['D_Two'] })
          .module('D_Two')
          .module('A_Three')
          .module('C_Four', { sequence: ['A_Three'] });
        other
          .module('C_Four', { sequence: ['A_Three'] })
          .module('A_Three')
          .module('D_Two')
          .module('B_One', { sequence: ['D_Two'] });
        expect(loadModules(other.sources(), other.configFile).map((m) => m.name)).to.deep.equal(load());
        const order = load();
        expect(order.indexOf('D_Two')).to.be.lessThan(order.indexOf('B_One'));
        expect(order.indexOf('A_Three')).to.be.lessThan(order.indexOf('C_Four'));
      } finally {
        other.remove();
      }
    });
  });

  describe('when the sequence has a cycle', () => {
    it('should fail naming every module of the cycle', async () => {
      tree
        .module('Acme_A', { sequence: ['Acme_B'] })
        .module('Acme_B', { sequence: ['Acme_C'] })
        .module('Acme_C', { sequence: ['Acme_A'] })
        .module('Acme_D');
      const error = await expectConfigError(load, 'Circular', 'Acme_A', 'Acme_B', 'Acme_C');
      expect(error.message).not.to.contain('Acme_D');
    });

    it('should fail on a module that depends on itself', async () => {
      tree.module('Acme_Self', { sequence: ['Acme_Self'] });
      await expectConfigError(load, 'Circular', 'Acme_Self');
    });
  });

  describe('when a dependency is missing', () => {
    it('should fail naming both the module and the missing dependency', async () => {
      tree.module('Acme_Sales', { sequence: ['Acme_Nowhere'] });
      await expectConfigError(load, 'Acme_Sales', 'Acme_Nowhere', 'not installed');
    });
  });

  describe('when two folders hold the same module', () => {
    let other: ModuleTree;
    beforeEach(() => (other = ModuleTree.create()));
    afterEach(() => other.remove());

    it('should fail naming both folders', async () => {
      tree.module('Acme_Twin');
      other.module('Acme_Twin');
      await expectConfigError(
        () => loadModules([...tree.sources(), ...other.sources()]),
        'Acme_Twin is declared twice',
        tree.dir('Acme_Twin'),
        other.dir('Acme_Twin'),
      );
    });

    it("should pass over a folder's module its source excludes, as if absent", () => {
      tree.module('Acme_Twin').module('Acme_Kept');
      other.module('Acme_Twin', { sequence: ['Acme_Kept'] });
      const [source] = tree.sources();
      const modules = loadModules([{ ...source!, exclude: ['Acme_Twin'] }, ...other.sources()]);
      expect(modules.map((m) => [m.name, m.dir])).to.deep.equal([
        ['Acme_Kept', tree.dir('Acme_Kept')],
        ['Acme_Twin', other.dir('Acme_Twin')],
      ]);
    });
  });

  describe('when etc/config.json disables a module', () => {
    it('should leave the disabled module out', () => {
      tree
        .module('Acme_One')
        .module('Acme_Two')
        .module('Acme_Three')
        .setEnabled('Acme_Two', false)
        .setEnabled('Acme_Three', true);
      expect(load()).to.deep.equal(['Acme_One', 'Acme_Three']);
    });

    it('should enable a dropped-in module that config.json does not list', () => {
      tree.module('Acme_One').setEnabled('Acme_One', true);
      tree.module('Acme_New');
      expect(load()).to.deep.equal(['Acme_New', 'Acme_One']);
    });

    it('should fail when an enabled module depends on the disabled one, naming both', async () => {
      tree
        .module('Acme_Base')
        .module('Acme_User', { sequence: ['Acme_Base'] })
        .setEnabled('Acme_Base', false);
      await expectConfigError(load, 'Acme_User', 'Acme_Base', 'disabled');
    });

    it('should accept a disabled module whose dependency is disabled too', () => {
      tree
        .module('Acme_Base')
        .module('Acme_User', { sequence: ['Acme_Base'] })
        .module('Acme_Other');
      tree.setEnabled('Acme_Base', false).setEnabled('Acme_User', false);
      expect(load()).to.deep.equal(['Acme_Other']);
    });

    it('should reject a config.json value that is not a boolean', async () => {
      tree.module('Acme_One').file('Acme_One', 'ignored.txt', '');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(tree.configFile, JSON.stringify({ modules: { Acme_One: 'no' } }));
      await expectConfigError(load, tree.configFile, 'Acme_One');
    });
  });

  describe('when module.xml is wrong', () => {
    it('should fail when the name does not match the folder, naming the file and both names', async () => {
      tree.module('Acme_Sales', { files: { 'etc/module.xml': configXml('<module name="Acme_Sale"/>') } });
      await expectConfigError(load, tree.path('Acme_Sales', 'etc/module.xml'), 'Acme_Sale"', 'Acme/Sales');
    });

    it('should fail on an unknown element, naming the file and the element', async () => {
      tree.module('Acme_Sales', {
        files: { 'etc/module.xml': configXml('<module name="Acme_Sales"><depends/></module>') },
      });
      await expectConfigError(load, tree.path('Acme_Sales', 'etc/module.xml'), '<depends>');
    });

    it('should fail on an unknown element inside <sequence>', async () => {
      tree.module('Acme_Sales', {
        files: {
          'etc/module.xml': configXml('<module name="Acme_Sales"><sequence><modul name="Acme_X"/></sequence></module>'),
        },
      });
      await expectConfigError(load, tree.path('Acme_Sales', 'etc/module.xml'), '<modul>');
    });

    it('should fail on an unknown attribute, naming the file and the attribute', async () => {
      tree.module('Acme_Sales', {
        files: { 'etc/module.xml': configXml('<module name="Acme_Sales" version="1.0"/>') },
      });
      await expectConfigError(load, tree.path('Acme_Sales', 'etc/module.xml'), '"version"');
    });

    it('should accept setup_version and the xsi namespace attributes Magento files carry', () => {
      tree.module('Acme_Sales', {
        files: {
          'etc/module.xml':
            '<?xml version="1.0"?><config xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="urn:magento:framework:Module/etc/module.xsd"><module name="Acme_Sales" setup_version="2.0.1"/></config>',
        },
      });
      const [module] = loadModules(tree.sources(), tree.configFile);
      expect(module!.setupVersion).to.equal('2.0.1');
    });

    it('should fail on malformed XML, naming the file', async () => {
      tree.module('Acme_Sales', { files: { 'etc/module.xml': '<config><module name="Acme_Sales"></config>' } });
      await expectConfigError(load, tree.path('Acme_Sales', 'etc/module.xml'), 'malformed XML');
    });
  });

  describe('when a folder has no etc/module.xml', () => {
    it('should not treat it as a module', () => {
      tree.module('Acme_One').file('Acme_Two', 'README.md', 'not a module');
      expect(load()).to.deep.equal(['Acme_One']);
    });
  });
});
