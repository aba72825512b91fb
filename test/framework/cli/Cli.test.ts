import { expect } from 'chai';
import { runCli } from '../../../app/cli/Cli.js';
import { ModuleTree, configXml } from '../support/moduleTree.js';

const NS = 'Fixture\\Dispatch';
const API = `${NS}\\Api\\DispatcherInterface`;
const DISPATCHER = `${NS}\\Model\\Dispatcher`;
const P = `${NS}\\Plugin`;

describe('CLI', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
    tree.module('Fixture_Dispatch', {
      files: {
        'etc/di.xml': configXml(`
          <preference for="${API}" type="${DISPATCHER}"/>
          <type name="${API}">
            <plugin name="plugin_c" type="${P}\\PluginC" sortOrder="30"/>
            <plugin name="plugin_a" type="${P}\\PluginA" sortOrder="10"/>
            <plugin name="args" type="${P}\\ArgsPlugin"/>
          </type>`),
        'etc/webapi_rest/di.xml': configXml(`<type name="${API}"><plugin name="plugin_b" type="${P}\\PluginBAround" sortOrder="20"/></type>`),
      },
    });
  });
  afterEach(() => tree.remove());

  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['node', 'cli', ...argv], { out: (line) => out.push(...line.split('\n')), err: (line) => err.push(line) }, tree.options());
    return { code, out, err };
  };

  describe('dev:plugin:list', () => {
    it('should print the chain of a contract in call order, for the webapi_rest area by default', async () => {
      const { code, out, err } = await cli('dev:plugin:list', API, 'dispatch');
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
      const { code, out } = await cli('dev:plugin:list', DISPATCHER, '--area', 'global');
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

    it('should say so for a method without plugins', async () => {
      const { code, out } = await cli('dev:plugin:list', API, 'toString');
      expect(code).to.equal(0);
      expect(out.slice(1)).to.deep.equal(['  toString():', '    no plugins']);
    });

    it('should fail with exit code 1 on an unknown type or area', async () => {
      let result = await cli('dev:plugin:list', `${NS}\\Model\\Nothing`);
      expect(result.code).to.equal(1);
      expect(result.err.join('\n')).to.contain(`${NS}\\Model\\Nothing`);
      result = await cli('dev:plugin:list', API, '--area', 'moon');
      expect(result.code).to.equal(1);
      expect(result.err.join('\n')).to.contain('"moon"');
    });
  });

  describe('module:status', () => {
    it('should list enabled modules in load order and the disabled ones', async () => {
      tree.module('Fixture_Off').module('Aaa_Last', { sequence: ['Fixture_Dispatch'] }).setEnabled('Fixture_Off', false);
      const { code, out } = await cli('module:status');
      expect(code).to.equal(0);
      expect(out).to.deep.equal(['Enabled modules (in load order):', '  Fixture_Dispatch', '  Aaa_Last', 'Disabled modules:', '  Fixture_Off']);
    });
  });

  describe('--help', () => {
    it('should list the framework commands', async () => {
      const { code, out } = await cli('--help');
      expect(code).to.equal(0);
      const text = out.join('\n');
      for (const command of ['module:status', 'setup:upgrade', 'dev:plugin:list', 'dev:route:list']) expect(text).to.contain(command);
    });

    it('should describe a command\'s arguments', async () => {
      const { code, out } = await cli('dev:plugin:list', '--help');
      expect(code).to.equal(0);
      expect(out.join('\n')).to.contain('<type>').and.contain('--area');
    });
  });
});
