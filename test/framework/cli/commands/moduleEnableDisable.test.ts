/**
 * commands/moduleEnableDisable.ts (`module:enable`, `module:disable`) through the real CLI entry, on
 * module trees of module.xml files alone (these commands boot nothing and touch no database).
 * Ported from Magento's setup/src/Magento/Setup/Test/Unit/Console/Command/ModuleEnableDisableCommandTest.php:
 * testExecute, testExecuteEnableInvalidModule, testExecuteDisableInvalidModule, testExecuteAll,
 * testExecuteWithConstraints, testExecuteForce, testExecuteNoChanges (there with a mocked Status;
 * here Status's checks run for real on the tree's <sequence>).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { ModuleTree } from '../../support/moduleTree.js';

const SETUP_UPGRADE = "To make sure that the enabled modules are properly registered, run 'setup:upgrade'.";

describe('module:enable / module:disable (Magento ModuleEnableDisableCommandTest)', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create();
    tree.module('Magento_Module1').module('Magento_Module2');
  });
  afterEach(() => tree.remove());

  const modules = () =>
    (JSON.parse(readFileSync(tree.configFile, 'utf8')) as { modules: Record<string, boolean> }).modules;

  for (const enable of [true, false]) {
    const command = enable ? 'module:enable' : 'module:disable';
    const done = enable ? 'enabled' : 'disabled';

    it(`testExecute (${command}): changes only the module not already ${done}, says so, and asks for setup:upgrade only when enabling`, async () => {
      // Module2 is already in the target state.
      tree.setEnabled('Magento_Module1', !enable).setEnabled('Magento_Module2', enable);
      const { code, out } = await tree.cli([command, 'Magento_Module1', 'Magento_Module2']);
      expect(code).to.equal(0);
      expect(out.slice(0, 3)).to.deep.equal([`The following modules have been ${done}:`, '- Magento_Module1', '']);
      expect(out.includes(SETUP_UPGRADE)).to.equal(enable);
      expect(modules()).to.deep.equal({ Magento_Module1: enable, Magento_Module2: enable });
    });

    it(`testExecute${enable ? 'Enable' : 'Disable'}InvalidModule: Unknown module(s), nothing written`, async () => {
      const before = readFileSync(tree.configFile, 'utf8');
      const { code, err } = await tree.cli([command, 'invalid']);
      expect(code).to.equal(1);
      expect(err).to.deep.equal(["Error: Unknown module(s): 'invalid'"]);
      expect(readFileSync(tree.configFile, 'utf8')).to.equal(before);
    });

    it(`testExecuteAll (${command} --all)`, async () => {
      tree.setEnabled('Magento_Module1', !enable).setEnabled('Magento_Module2', enable);
      const { code, out } = await tree.cli([command, '--all']);
      expect(code).to.equal(0);
      expect(out.slice(0, 2)).to.deep.equal([`The following modules have been ${done}:`, '- Magento_Module1']);
      expect(out.includes(SETUP_UPGRADE)).to.equal(enable);
    });

    it(`testExecuteWithConstraints (${command}): lists the constraints and changes nothing`, async () => {
      // Module1 depends on Module2: enabling Module1 alone, or disabling Module2 alone, breaks it.
      tree.module('Magento_Module1', { sequence: ['Magento_Module2'] });
      if (enable) tree.setEnabled('Magento_Module1', false).setEnabled('Magento_Module2', false);
      const target = enable ? 'Magento_Module1' : 'Magento_Module2';
      const before = readFileSync(tree.configFile, 'utf8');
      const { code, err } = await tree.cli([command, target]);
      expect(code).to.equal(1);
      expect(err.join('\n').split('\n')).to.deep.equal([
        'Error: Unable to change status of modules because of the following constraints:',
        enable
          ? 'Cannot enable Magento_Module1, depending on disabled modules:'
          : 'Cannot disable Magento_Module2, modules depending on it:',
        // Magento's "<module>: <path>": the disabled dependency when enabling, the dependent when disabling.
        `${enable ? 'Magento_Module2' : 'Magento_Module1'}: Magento_Module1->Magento_Module2`,
      ]);
      expect(readFileSync(tree.configFile, 'utf8')).to.equal(before);
    });

    it(`testExecuteForce (${command} --force): changes it anyway and warns`, async () => {
      tree.module('Magento_Module1', { sequence: ['Magento_Module2'] });
      if (enable) tree.setEnabled('Magento_Module1', false).setEnabled('Magento_Module2', false);
      const target = enable ? 'Magento_Module1' : 'Magento_Module2';
      const { code, out } = await tree.cli([command, target, '--force']);
      expect(code).to.equal(0);
      expect(out.slice(0, 2)).to.deep.equal([`The following modules have been ${done}:`, `- ${target}`]);
      expect(out).to.include('Alert: You used the --force option. As a result, modules might not function properly.');
      expect(modules()[target]).to.equal(enable);
    });

    it(`testExecuteNoChanges (${command})`, async () => {
      if (!enable) tree.setEnabled('Magento_Module1', false).setEnabled('Magento_Module2', false);
      const before = readFileSync(tree.configFile, 'utf8');
      const { code, out } = await tree.cli([command, 'Magento_Module1', 'Magento_Module2']);
      expect(code).to.equal(0);
      expect(out).to.deep.equal(['No modules were changed.']);
      expect(readFileSync(tree.configFile, 'utf8')).to.equal(before);
    });
  }
});
