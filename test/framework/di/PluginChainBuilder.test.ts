/**
 * Plugin-chain assembly on real di.xml and fixture classes: which declarations apply to a class
 * (on its contract, merged by name), composed per method in Magento's order. Running the chains
 * is Interceptor.test.ts's part.
 */
import { expect } from 'chai';
import { ClassResolver, type Newable } from '../../../app/framework/di/ClassResolver.js';
import { PluginChainBuilder } from '../../../app/framework/di/PluginChainBuilder.js';
import { describeLevels } from '../../../app/framework/interception/PluginList.js';
import { ModuleTree, configXml } from '../support/moduleTree.js';

const NS = 'Fixture\\Dispatch';
const API = `${NS}\\Api\\DispatcherInterface`;
const DISPATCHER = `${NS}\\Model\\Dispatcher`;

describe('PluginChainBuilder', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
  });
  afterEach(() => tree.dispose());

  /** A builder over `diXml` (Fixture_Dispatch's etc/di.xml) with every class it names loaded. */
  const builderFor = async (diXml: string) => {
    tree.module('Fixture_Dispatch', {
      files: { 'etc/di.xml': configXml(`<preference for="${API}" type="${DISPATCHER}"/>${diXml}`) },
    });
    const app = await tree.boot('global');
    const resolver = new ClassResolver(app.modules);
    for (const name of [
      API,
      DISPATCHER,
      `${NS}\\Plugin\\PluginA`,
      `${NS}\\Plugin\\PluginBAround`,
      `${NS}\\Plugin\\PluginC`,
    ])
      await resolver.load(name, 'test');
    const builder = new PluginChainBuilder(app.diConfig, resolver, () => ({}));
    return { builder, dispatcher: resolver.get(DISPATCHER) as Newable };
  };

  it('should compose the plugins declared on the contract for the class that serves it, in sortOrder', async () => {
    const { builder, dispatcher } = await builderFor(
      `<type name="${API}"><plugin name="c" type="${NS}\\Plugin\\PluginC" sortOrder="30"/><plugin name="a" type="${NS}\\Plugin\\PluginA" sortOrder="10"/></type>`,
    );
    const chains = builder.chainsFor(dispatcher, [DISPATCHER])!;
    expect([...chains.keys()]).to.deep.equal(['dispatch']);
    expect(describeLevels(chains.get('dispatch')!, 'dispatch')).to.deep.equal([
      `a::beforeDispatch (${NS}\\Plugin\\PluginA, sortOrder 10)`,
      `c::beforeDispatch (${NS}\\Plugin\\PluginC, sortOrder 30)`,
      'dispatch() itself',
      `a::afterDispatch (${NS}\\Plugin\\PluginA, sortOrder 10)`,
      `c::afterDispatch (${NS}\\Plugin\\PluginC, sortOrder 30)`,
    ]);
  });

  it('should let a declaration on the class disable a plugin of the same name declared on the contract', async () => {
    const { builder, dispatcher } = await builderFor(
      `<type name="${API}"><plugin name="a" type="${NS}\\Plugin\\PluginA" sortOrder="10"/><plugin name="c" type="${NS}\\Plugin\\PluginC" sortOrder="30"/></type>` +
        `<type name="${DISPATCHER}"><plugin name="a" disabled="true"/></type>`,
    );
    const levels = builder.chainsFor(dispatcher, [DISPATCHER])!.get('dispatch')!;
    expect(describeLevels(levels, 'dispatch')).to.deep.equal([
      `c::beforeDispatch (${NS}\\Plugin\\PluginC, sortOrder 30)`,
      'dispatch() itself',
      `c::afterDispatch (${NS}\\Plugin\\PluginC, sortOrder 30)`,
    ]);
  });

  it('should answer undefined for a class no plugin applies to', async () => {
    const { builder, dispatcher } = await builderFor('');
    expect(builder.chainsFor(dispatcher, [DISPATCHER])).to.equal(undefined);
  });
});
