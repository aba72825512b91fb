/** commands/moduleStatus.ts (`module:status`) through the real CLI entry. */
import { expect } from 'chai';
import { ModuleTree } from '../../support/moduleTree.js';

describe('module:status', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
    tree.module('Fixture_Dispatch');
  });
  afterEach(() => tree.remove());

  it('should list enabled modules in load order and the disabled ones', async () => {
    tree
      .module('Fixture_Off')
      .module('Aaa_Last', { sequence: ['Fixture_Dispatch'] })
      .setEnabled('Fixture_Off', false);
    const { code, out } = await tree.cli(['module:status']);
    expect(code).to.equal(0);
    expect(out).to.deep.equal([
      'Enabled modules (in load order):',
      '  Fixture_Dispatch',
      '  Aaa_Last',
      'Disabled modules:',
      '  Fixture_Off',
    ]);
  });

  it('should say None when every module is enabled', async () => {
    const { code, out } = await tree.cli(['module:status']);
    expect(code).to.equal(0);
    expect(out).to.deep.equal([
      'Enabled modules (in load order):',
      '  Fixture_Dispatch',
      'Disabled modules:',
      '  None',
    ]);
  });
});
