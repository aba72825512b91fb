import { ModuleTree, configXml, expectConfigError, routesXml } from '../support/moduleTree.js';

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
