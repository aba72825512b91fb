/**
 * Cli.ts: the entry every command runs through (commander, help, exit codes). Each framework
 * command's own behaviour is tested in commands/<file>.test.ts.
 */
import { expect } from 'chai';
import { ModuleTree } from '../support/moduleTree.js';

describe('CLI', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
    tree.module('Fixture_Dispatch');
  });
  afterEach(() => tree.remove());

  describe('--help', () => {
    it('should list the framework commands', async () => {
      const { code, out } = await tree.cli(['--help']);
      expect(code).to.equal(0);
      const text = out.join('\n');
      for (const command of [
        'module:status',
        'setup:upgrade',
        'dev:plugin:list',
        'dev:event:list',
        'dev:route:list',
        'queue:consumers:start',
      ])
        expect(text).to.contain(command);
    });
  });

  describe('when no command or an unknown one is given', () => {
    it('should print the help and exit with 1 without a command', async () => {
      const { code, out, err } = await tree.cli([]);
      expect(code).to.equal(1);
      expect([...out, ...err].join('\n')).to.contain('Usage: cli');
    });

    it('should name an unknown command and exit with 1', async () => {
      const { code, err } = await tree.cli(['module:nothing']);
      expect(code).to.equal(1);
      expect(err.join('\n')).to.contain("unknown command 'module:nothing'");
    });
  });
});
