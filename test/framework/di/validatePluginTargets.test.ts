/**
 * Plugin validation at start-up: a plugin method must name a method of its target; a disabled
 * plugin is not checked. (The chains themselves: test/framework/interception/Interceptor.test.ts.)
 */
import { expect } from 'chai';
import type { DispatcherInterface } from '../../fixtures/runtime/modules/Fixture/Dispatch/Api/DispatcherInterface.js';
import { ModuleTree, configXml, expectConfigError } from '../support/moduleTree.js';

const NS = 'Fixture\\Dispatch';
const API = `${NS}\\Api\\DispatcherInterface`;
const PREFERENCE = `<preference for="${API}" type="${NS}\\Model\\Dispatcher"/>`;
const BAD = (extra: string) =>
  `<type name="${API}"><plugin name="bad" type="${NS}\\Plugin\\BadPlugin" sortOrder="10"${extra}/></type>`;

describe('validatePluginTargets', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
  });
  afterEach(() => tree.dispose());

  it('should fail at start-up on a plugin method that matches no method of the target, naming the file, plugin and method', async () => {
    tree.module('Fixture_Dispatch', { files: { 'etc/di.xml': configXml(PREFERENCE + BAD('')) } });
    await expectConfigError(
      () => tree.boot('global'),
      tree.path('Fixture_Dispatch', 'etc/di.xml'),
      '"bad"',
      `${NS}\\Plugin\\BadPlugin`,
      `${API}::noSuchMethod()`,
    );
  });

  it('should not check the methods of a disabled plugin', async () => {
    tree.module('Fixture_Dispatch', { files: { 'etc/di.xml': configXml(PREFERENCE + BAD(' disabled="true"')) } });
    const app = await tree.boot('global');
    const log: string[] = [];
    await app.get<DispatcherInterface>(API).dispatch(log);
    expect(log).to.deep.equal(['dispatch']);
  });
});
