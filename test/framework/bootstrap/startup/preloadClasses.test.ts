import { expect } from 'chai';
import { ModuleTree, configXml, expectConfigError, routesXml } from '../../support/moduleTree.js';

const NS = 'Fixture\\Dispatch';
const API = `${NS}\\Api\\DispatcherInterface`;
const DISPATCHER = `${NS}\\Model\\Dispatcher`;

describe('preloadClasses: every class the configuration names is loaded at start-up', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
  });
  afterEach(() => tree.dispose());

  const boot = () => tree.boot('webapi_rest');
  const diFile = () => tree.path('Fixture_Dispatch', 'etc/di.xml');
  const withDi = (body: string, webapi?: string) =>
    tree.module('Fixture_Dispatch', {
      files: { 'etc/di.xml': configXml(body), ...(webapi ? { 'etc/webapi.xml': routesXml(webapi) } : {}) },
    });

  describe("when di.xml names Magento's own framework classes (issue 30: Magento's TestModuleMSC)", () => {
    it('should refuse MetadataConfig, naming the file, the element and what to write instead', async () => {
      withDi(
        `<virtualType name="Vendor\\Module\\Config\\MetadataConfig" type="Magento\\Framework\\Api\\ExtensionAttribute\\Config\\MetadataConfig">
           <arguments><argument name="dataObjectClassName" xsi:type="string">${DISPATCHER}</argument></arguments>
         </virtualType>`,
      );
      await expectConfigError(
        boot,
        diFile(),
        '<virtualType name="Vendor\\Module\\Config\\MetadataConfig" type="Magento\\Framework\\Api\\ExtensionAttribute\\Config\\MetadataConfig">',
        'is not provided by this runtime',
        'customAttributes: { codes: [...] }',
      );
    });

    it('should refuse EavCustomAttributeTypeLocator, naming the file, the element and what to write instead', async () => {
      withDi(
        `<type name="Magento\\Eav\\Model\\EavCustomAttributeTypeLocator"><arguments>
           <argument name="serviceEntityTypeMap" xsi:type="array"><item name="${API}" xsi:type="string">1</item></argument>
         </arguments></type>`,
      );
      await expectConfigError(
        boot,
        diFile(),
        '<type name="Magento\\Eav\\Model\\EavCustomAttributeTypeLocator">',
        'is not provided by this runtime',
        'types: { code: <joi schema> }',
      );
    });

    it('should build a virtualType of Magento\\Framework\\DataObject with its data', async () => {
      withDi(
        `<virtualType name="CustomAttributeMap" type="Magento\\Framework\\DataObject"><arguments>
           <argument name="data" xsi:type="array"><item name="nested" xsi:type="string">${API}</item></argument>
         </arguments></virtualType>`,
      );
      const app = await boot();
      const map = app.objectManager.get<{ getData(key: string): unknown }>('CustomAttributeMap');
      expect(map.getData('nested')).to.equal(API);
    });
  });

  describe('when a class named in di.xml does not resolve', () => {
    it('should name the file and the class when there is no such file', async () => {
      withDi(`<preference for="${API}" type="${NS}\\Model\\Missing"/>`);
      await expectConfigError(boot, diFile(), `${NS}\\Model\\Missing`, 'does not resolve');
    });

    it('should name the file and the class when its module is not enabled', async () => {
      withDi(`<preference for="${API}" type="Other\\Module\\Model\\Thing"/>`);
      await expectConfigError(boot, diFile(), 'Other\\Module\\Model\\Thing', 'Other_Module');
    });

    it('should name the file and the class when the file lacks that export', async () => {
      withDi(`<preference for="${API}" type="${NS}\\Model\\WrongExport"/>`);
      await expectConfigError(boot, diFile(), `${NS}\\Model\\WrongExport`, 'no export "WrongExport"');
    });

    it('should name the file and the class of an object argument', async () => {
      withDi(
        `<type name="${DISPATCHER}"><arguments><argument name="x" xsi:type="array"><item name="y" xsi:type="object">${NS}\\Api\\Nothing</item></argument></arguments></type>`,
      );
      await expectConfigError(boot, diFile(), `${NS}\\Api\\Nothing`);
    });

    it('should reject a name that is not of the form Vendor\\Module\\Path\\Name', async () => {
      withDi(`<preference for="${API}" type="Dispatcher"/>`);
      await expectConfigError(boot, diFile(), '"Dispatcher"');
    });
  });
});
