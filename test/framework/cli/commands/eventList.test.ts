/** commands/eventList.ts (`dev:event:list`) through the real CLI entry, on Fixture_Events' observers. */
import { expect } from 'chai';
import { ModuleTree, configXml } from '../../support/moduleTree.js';

const O = 'Fixture\\Events\\Observer';
const EVENT = 'fixture_order_place_after';

function observer(name: string, cls: string | null, extra = ''): string {
  return `<observer name="${name}"${cls ? ` instance="${O}\\${cls}"` : ''}${extra}/>`;
}

function on(event: string, ...observers: string[]): string {
  return `<event name="${event}">${observers.join('')}</event>`;
}

describe('dev:event:list', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
    tree.module('Fixture_Events', {
      files: {
        'etc/events.xml': configXml(
          on(EVENT, observer('record', 'RecordObserver'), observer('second', 'SecondObserver', ' shared="false"')) +
            on('other_event', observer('fail', 'FailingObserver')),
        ),
        'etc/webapi_rest/events.xml': configXml(on(EVENT, observer('record', null, ' disabled="true"'))),
      },
    });
  });
  afterEach(() => tree.remove());

  const cli = (...argv: string[]) => tree.cli(['dev:event:list', ...argv]);

  it('should print the observers of one event in call order, per area, with the disabled ones', async () => {
    const { code, out } = await cli(EVENT);
    expect(code).to.equal(0);
    expect(out).to.deep.equal([
      'Area global:',
      `  ${EVENT}:`,
      `    1. record (${O}\\RecordObserver)`,
      `    2. second (${O}\\SecondObserver, shared="false")`,
      'Area webapi_rest:',
      `  ${EVENT}:`,
      `    1. second (${O}\\SecondObserver, shared="false")`,
      `    disabled: record (${O}\\RecordObserver)`,
    ]);
  });

  it('should print every event of one area with --area', async () => {
    const { code, out } = await cli('--area', 'global');
    expect(code).to.equal(0);
    expect(out).to.deep.equal([
      'Area global:',
      `  ${EVENT}:`,
      `    1. record (${O}\\RecordObserver)`,
      `    2. second (${O}\\SecondObserver, shared="false")`,
      '  other_event:',
      `    1. fail (${O}\\FailingObserver)`,
    ]);
  });

  it('should fail with exit code 1 on an unknown area', async () => {
    const { code, err } = await cli('--area', 'moon');
    expect(code).to.equal(1);
    expect(err.join('\n')).to.contain('Unknown area "moon"');
  });
});
