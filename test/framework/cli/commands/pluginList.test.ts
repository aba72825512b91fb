/** commands/pluginList.ts (`dev:plugin:list`) through the real CLI entry, on Fixture_Dispatch's plugins. */
import { expect } from 'chai';
import { ModuleTree, configXml } from '../../support/moduleTree.js';

const NS = 'Fixture\\Dispatch';
const API = `${NS}\\Api\\DispatcherInterface`;
const DISPATCHER = `${NS}\\Model\\Dispatcher`;
const P = `${NS}\\Plugin`;

describe('dev:plugin:list', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
    tree.module('Fixture_Dispatch', {
      files: {
        'etc/di.xml': configXml(`
          <preference for="${API}" type="${DISPATCHER}"/>
          <type name="${NS}\\Model\\Formatter"/>
          <type name="${API}">
            <plugin name="plugin_c" type="${P}\\PluginC" sortOrder="30"/>
            <plugin name="plugin_a" type="${P}\\PluginA" sortOrder="10"/>
            <plugin name="args" type="${P}\\ArgsPlugin"/>
          </type>`),
        'etc/webapi_rest/di.xml': configXml(
          `<type name="${API}"><plugin name="plugin_b" type="${P}\\PluginBAround" sortOrder="20"/></type>`,
        ),
      },
    });
  });
  afterEach(() => tree.remove());

  const cli = (...argv: string[]) => tree.cli(['dev:plugin:list', ...argv]);

  it('should print the chain of a contract in call order, for the webapi_rest area by default', async () => {
    const { code, out, err } = await cli(API, 'dispatch');
    expect(err).to.deep.equal([]);
    expect(code).to.equal(0);
    expect(out).to.deep.equal([
      `${API} (served by ${DISPATCHER}), area webapi_rest:`,
      '  dispatch():',
      `    plugin_a::beforeDispatch (${P}\\PluginA, sortOrder 10)`,
      `    plugin_b::beforeDispatch (${P}\\PluginBAround, sortOrder 20)`,
      `    plugin_b::aroundDispatch (${P}\\PluginBAround, sortOrder 20) -> proceed:`,
      `      plugin_c::beforeDispatch (${P}\\PluginC, sortOrder 30)`,
      '      dispatch() itself',
      `      plugin_c::afterDispatch (${P}\\PluginC, sortOrder 30)`,
      `    plugin_a::afterDispatch (${P}\\PluginA, sortOrder 10)`,
      `    plugin_b::afterDispatch (${P}\\PluginBAround, sortOrder 20)`,
    ]);
  });

  it('should leave area-only plugins out with --area global, and list every intercepted method without a method', async () => {
    const { code, out } = await cli(DISPATCHER, '--area', 'global');
    expect(code).to.equal(0);
    expect(out).to.deep.equal([
      `${DISPATCHER}, area global:`,
      '  calc():',
      `    args::beforeCalc (${P}\\ArgsPlugin, sortOrder 0)`,
      '    calc() itself',
      `    args::afterCalc (${P}\\ArgsPlugin, sortOrder 0)`,
      '  dispatch():',
      `    plugin_a::beforeDispatch (${P}\\PluginA, sortOrder 10)`,
      `    plugin_c::beforeDispatch (${P}\\PluginC, sortOrder 30)`,
      '    dispatch() itself',
      `    plugin_a::afterDispatch (${P}\\PluginA, sortOrder 10)`,
      `    plugin_c::afterDispatch (${P}\\PluginC, sortOrder 30)`,
    ]);
  });

  it('should say so for a method without plugins, and for a type without any', async () => {
    let result = await cli(API, 'toString');
    expect(result.code).to.equal(0);
    expect(result.out.slice(1)).to.deep.equal(['  toString():', '    no plugins']);
    result = await cli(`${NS}\\Model\\Formatter`);
    expect(result.code).to.equal(0);
    expect(result.out).to.deep.equal([`${NS}\\Model\\Formatter, area webapi_rest:`, '  no plugins']);
  });

  it('should fail with exit code 1 on an unknown type or area', async () => {
    let result = await cli(`${NS}\\Model\\Nothing`);
    expect(result.code).to.equal(1);
    expect(result.err.join('\n')).to.contain(`Unknown type ${NS}\\Model\\Nothing`);
    result = await cli(API, '--area', 'moon');
    expect(result.code).to.equal(1);
    expect(result.err.join('\n')).to.contain('Unknown area "moon"');
  });

  it('should describe its arguments and option in --help', async () => {
    const { code, out } = await cli('--help');
    expect(code).to.equal(0);
    expect(out.join('\n')).to.contain('<type>').and.contain('[method]').and.contain('--area <area>');
  });
});
