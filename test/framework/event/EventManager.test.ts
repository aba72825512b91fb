import { expect } from 'chai';
import type { Area } from '../../../app/framework/config/Area.js';
import { EventManagerInterface } from '../../../app/framework/event/ManagerInterface.js';
import type { Notifier } from '../../fixtures/runtime/modules/Fixture/Events/Model/Notifier.js';
import { RecordObserver } from '../../fixtures/runtime/modules/Fixture/Events/Observer/RecordObserver.js';
import { ModuleTree, configXml, expectConfigError } from '../support/moduleTree.js';

const O = 'Fixture\\Events\\Observer';
const NOTIFIER = 'Fixture\\Events\\Model\\Notifier';
const EVENT = 'fixture_order_place_after';

function observer(name: string, cls: string | null, extra = ''): string {
  return `<observer name="${name}"${cls ? ` instance="${O}\\${cls}"` : ''}${extra}/>`;
}

function events(...parts: string[]): string {
  return configXml(parts.join('\n'));
}

function on(event: string, ...observers: string[]): string {
  return `<event name="${event}">${observers.join('')}</event>`;
}

describe('Events', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
    RecordObserver.log = [];
    RecordObserver.instances = 0;
  });
  afterEach(() => tree.dispose());

  const boot = (area: Area = 'global') => tree.boot(area);

  const module = (name: string, files: Record<string, string>, sequence: string[] = []) =>
    tree.module(name, { sequence, files: { 'etc/di.xml': configXml(`<type name="${NOTIFIER}"/>`), ...files } });

  describe('when modules observe an event', () => {
    it('should call every observer in module load order, each reading the data as in Magento, and wait for async ones', async () => {
      module('Fixture_Events', { 'etc/events.xml': events(on(EVENT, observer('record', 'RecordObserver'))) });
      module('Fixture_Later', { 'etc/events.xml': events(on(EVENT, observer('second', 'SecondObserver'))) }, [
        'Fixture_Events',
      ]);
      const notifier = (await boot()).get<Notifier>(NOTIFIER);
      await notifier.notify('42');
      await notifier.notify('43');
      expect(RecordObserver.log).to.deep.equal([
        `record#1:${EVENT}:42`,
        `second:${EVENT}`,
        `record#1:${EVENT}:43`,
        `second:${EVENT}`,
      ]);
    });

    it('should let a later module disable an observer by name', async () => {
      module('Fixture_Events', {
        'etc/events.xml': events(on(EVENT, observer('record', 'RecordObserver'), observer('second', 'SecondObserver'))),
      });
      module('Fixture_Later', { 'etc/events.xml': events(on(EVENT, observer('record', null, ' disabled="true"'))) }, [
        'Fixture_Events',
      ]);
      await (await boot()).get<Notifier>(NOTIFIER).notify('1');
      expect(RecordObserver.log).to.deep.equal([`second:${EVENT}`]);
    });

    it('should build a shared="false" observer afresh for every dispatch, and a shared one once', async () => {
      module('Fixture_Events', {
        'etc/events.xml': events(on(EVENT, observer('record', 'RecordObserver', ' shared="false"'))),
      });
      const manager = (await boot()).get<EventManagerInterface>(EventManagerInterface);
      await manager.dispatch(EVENT, { order_value: 'a' });
      await manager.dispatch(EVENT.toUpperCase(), { order_value: 'b' });
      expect(RecordObserver.log).to.deep.equal([`record#1:${EVENT}:a`, `record#2:${EVENT}:b`]);
    });

    it("should let an observer's exception reach the caller and stop the dispatch", async () => {
      module('Fixture_Events', {
        'etc/events.xml': events(on(EVENT, observer('fail', 'FailingObserver'), observer('record', 'RecordObserver'))),
      });
      const notifier = (await boot()).get<Notifier>(NOTIFIER);
      let caught: unknown;
      await notifier.notify('9').catch((error: unknown) => (caught = error));
      expect((caught as Error).message).to.equal('Observer refused 9.');
      expect(RecordObserver.log).to.deep.equal([]);
    });

    it('should apply an area file only in that area', async () => {
      module('Fixture_Events', {
        'etc/events.xml': events(on(EVENT, observer('record', 'RecordObserver'))),
        'etc/webapi_rest/events.xml': events(on(EVENT, observer('second', 'SecondObserver'))),
      });
      await (await boot('global')).get<Notifier>(NOTIFIER).notify('g');
      await (await boot('webapi_rest')).get<Notifier>(NOTIFIER).notify('r');
      expect(RecordObserver.log).to.deep.equal([`record#1:${EVENT}:g`, `record#2:${EVENT}:r`, `second:${EVENT}`]);
    });
  });

  describe('when events.xml is wrong', () => {
    const bad = async (xml: string, ...fragments: string[]) => {
      module('Fixture_Events', { 'etc/events.xml': xml });
      await expectConfigError(() => boot(), tree.path('Fixture_Events', 'etc/events.xml'), ...fragments);
    };

    it('should fail at start-up on an unknown element or attribute, naming the file', async () => {
      await bad(events(on(EVENT, '<listener name="x"/>')), '<listener>');
      await bad(events(on(EVENT, observer('record', 'RecordObserver', ' method="run"'))), '"method"');
    });

    it('should fail at start-up on an instance that does not resolve or has no execute(), naming the file', async () => {
      await bad(events(on(EVENT, observer('ghost', 'GhostObserver'))), `${O}\\GhostObserver`);
      await bad(events(on(EVENT, observer('wrong', 'NotAnObserver'))), `${O}\\NotAnObserver`, 'execute');
      await bad(events(on(EVENT, observer('none', null))), '"none"', 'no instance');
    });
  });
});
