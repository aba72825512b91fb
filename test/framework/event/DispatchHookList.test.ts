/** Hooks on every event dispatch (Framework\Event\DispatchHookList), the extension point of out-of-process observers and the outbox. */
import { expect } from 'chai';
import { DispatchHookList, type DispatchHook } from '../../../app/framework/event/DispatchHookList.js';
import { EventConfig } from '../../../app/framework/event/EventConfig.js';
import type { Observer } from '../../../app/framework/event/Event.js';
import { DISPATCH_HOOK_LIST, EventManager } from '../../../app/framework/event/EventManager.js';

describe('Event dispatch hooks', () => {
  const log: string[] = [];
  const observed = new EventConfig();
  observed.events.set(
    'thing_saved',
    new Map([['record', { name: 'record', event: 'thing_saved', instance: 'Record', files: ['events.xml'] }]]),
  );
  const managerWith = (hooks: Record<string, DispatchHook>) => {
    const manager = new EventManager(observed);
    const list = new DispatchHookList(hooks);
    const observer = { execute: (o: Observer) => void log.push(`observer ${JSON.stringify(o.getEvent().getData())}`) };
    manager.connect({ get: (name) => (name === DISPATCH_HOOK_LIST ? list : observer), create: () => observer });
    return manager;
  };
  beforeEach(() => (log.length = 0));

  it('should run before hooks (which may replace the data), the observers, then after hooks, in list order', async () => {
    const manager = managerWith({
      first: {
        beforeDispatch: async (name, data) => {
          log.push(`before1 ${name}`);
          return { ...data, changed: true };
        },
        afterDispatch: async (_n, data) => void log.push(`after1 ${JSON.stringify(data)}`),
      },
      second: {
        beforeDispatch: async () => void log.push('before2'),
        afterDispatch: async () => void log.push('after2'),
      },
    });
    await manager.dispatch('THING_SAVED', { id: 1 });
    expect(log).to.deep.equal([
      'before1 thing_saved',
      'before2',
      'observer {"id":1,"changed":true}',
      'after1 {"id":1,"changed":true}',
      'after2',
    ]);
  });

  it('should run the hooks of an event no events.xml observes', async () => {
    const manager = managerWith({ only: { afterDispatch: async (name) => void log.push(`after ${name}`) } });
    await manager.dispatch('nobody_listens', {});
    expect(log).to.deep.equal(['after nobody_listens']);
  });

  it('should stop the dispatch when a hook throws, as an observer that throws does', async () => {
    const manager = managerWith({ veto: { beforeDispatch: async () => Promise.reject(new Error('vetoed')) } });
    let error: unknown;
    await manager.dispatch('thing_saved', {}).catch((e: unknown) => (error = e));
    expect((error as Error).message).to.equal('vetoed');
    expect(log).to.deep.equal([]);
  });
});
