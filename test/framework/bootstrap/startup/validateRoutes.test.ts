import { expect } from 'chai';
import { ModuleTree, configXml, expectConfigError, routesXml } from '../../support/moduleTree.js';

const NS = 'Fixture\\Dispatch';
const API = `${NS}\\Api\\DispatcherInterface`;
const DISPATCHER = `${NS}\\Model\\Dispatcher`;
const PREFERENCE = `<preference for="${API}" type="${DISPATCHER}"/>`;

function route(service: string, method: string, url = '/V1/dispatch'): string {
  return `<route url="${url}" method="POST"><service class="${service}" method="${method}"/><resources><resource ref="anonymous"/></resources></route>`;
}

describe('validateRoutes: webapi.xml routes checked against their contracts at start-up', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
  });
  afterEach(() => tree.dispose());

  const boot = () => tree.boot('webapi_rest');
  const webapiFile = () => tree.path('Fixture_Dispatch', 'etc/webapi.xml');
  const withDi = (body: string, webapi?: string) =>
    tree.module('Fixture_Dispatch', {
      files: { 'etc/di.xml': configXml(body), ...(webapi ? { 'etc/webapi.xml': routesXml(webapi) } : {}) },
    });

  describe('when a route is wrong', () => {
    it('should fail on a method the contract does not have, naming the file, the route and the method', async () => {
      withDi(PREFERENCE, route(API, 'dispatchAll'));
      await expectConfigError(boot, webapiFile(), 'POST /V1/dispatch', '"dispatchAll"', API);
    });

    it('should fail on a contract that no preference serves, naming it', async () => {
      withDi('', route(API, 'dispatch'));
      await expectConfigError(boot, webapiFile(), API, '<preference>');
    });

    it('should fail on a service that is a class, not a contract', async () => {
      withDi(PREFERENCE, route(DISPATCHER, 'dispatch'));
      await expectConfigError(boot, webapiFile(), DISPATCHER, 'not a contract');
    });

    it('should fail on a service class that does not resolve, naming the file', async () => {
      withDi(PREFERENCE, route(`${NS}\\Api\\MissingInterface`, 'dispatch'));
      await expectConfigError(boot, webapiFile(), `${NS}\\Api\\MissingInterface`);
    });

    it('should accept a valid route and expose it with its method spec', async () => {
      withDi(PREFERENCE, route(API, 'calc'));
      const booted = await boot();
      const [[definition, spec]] = [...booted.routes];
      expect(definition!.serviceMethod).to.equal('calc');
      expect(spec!.params.map((p) => p.name)).to.deep.equal(['log', 'a', 'b']);
    });

    it('should accept a contract whose <preference> is a virtual type, and serve the call with it (issue 30)', async () => {
      withDi(
        `<preference for="${API}" type="specialVirtualDispatcher"/>
         <virtualType name="specialVirtualDispatcher" type="${NS}\\Model\\SpecialDispatcher"/>`,
        route(API, 'dispatch'),
      );
      const booted = await boot();
      const log: string[] = [];
      await booted.objectManager.get<{ dispatch(log: string[]): Promise<string> }>(API).dispatch(log);
      expect(log).to.deep.equal(['special', 'dispatch']);
    });

    it('should not read routes outside the webapi_rest area', async () => {
      withDi('', route(API, 'dispatchAll'));
      const app = await tree.boot('global');
      expect(app.routes.size).to.equal(0);
    });
  });
});
