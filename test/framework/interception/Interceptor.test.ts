/**
 * Interceptor.ts: the composed chains run through the container on real di.xml, in Magento's order
 * (the docs table), with before/after/around semantics, sync or async. Which plugins a chain holds
 * is PluginChainBuilder.test.ts's and PluginList.test.ts's part; this file checks them only as
 * the calls they make.
 */
import { expect } from 'chai';
import type { Application } from '../../../app/bootstrap/Application.js';
import type { Area } from '../../../app/framework/config/Area.js';
import type { DispatcherInterface } from '../../fixtures/runtime/modules/Fixture/Dispatch/Api/DispatcherInterface.js';
import { Dispatcher } from '../../fixtures/runtime/modules/Fixture/Dispatch/Model/Dispatcher.js';
import { SpecialDispatcher } from '../../fixtures/runtime/modules/Fixture/Dispatch/Model/SpecialDispatcher.js';
import { PluginA } from '../../fixtures/runtime/modules/Fixture/Dispatch/Plugin/PluginA.js';
import { PluginBAround } from '../../fixtures/runtime/modules/Fixture/Dispatch/Plugin/PluginBAround.js';
import { ModuleTree, configXml, expectConfigError } from '../support/moduleTree.js';

const NS = 'Fixture\\Dispatch';
const API = `${NS}\\Api\\DispatcherInterface`;
const DISPATCHER = `${NS}\\Model\\Dispatcher`;
const SPECIAL = `${NS}\\Model\\SpecialDispatcher`;
const PREFERENCE = `<preference for="${API}" type="${DISPATCHER}"/>`;

/** `<plugin name=.. type=Fixture\Dispatch\Plugin\<cls> sortOrder=..>` */
function plugin(name: string, cls: string | null, sortOrder?: number, extra = ''): string {
  const type = cls ? ` type="${NS}\\Plugin\\${cls}"` : '';
  const order = sortOrder === undefined ? '' : ` sortOrder="${sortOrder}"`;
  return `<plugin name="${name}"${type}${order}${extra}/>`;
}

function on(target: string, ...plugins: string[]): string {
  return `<type name="${target}">${plugins.join('')}</type>`;
}

const TABLE = {
  allBeforeAndAfter: ['A.before', 'B.before', 'C.before', 'dispatch', 'A.after', 'B.after', 'C.after'],
  bAlsoAround: [
    'A.before',
    'B.before',
    'B.around (first half)',
    'C.before',
    'dispatch',
    'C.after',
    'B.around (second half)',
    'A.after',
    'B.after',
  ],
  aAndCAlsoAround: [
    'A.before',
    'A.around (first half)',
    'B.before',
    'C.before',
    'C.around (first half)',
    'dispatch',
    'C.around (second half)',
    'B.after',
    'C.after',
    'A.around (second half)',
    'A.after',
  ],
};

describe('Interceptor', () => {
  let tree: ModuleTree;
  let apps: Application[];
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
    apps = [];
  });
  afterEach(async () => {
    for (const app of apps) await app.close();
    tree.remove();
  });

  const boot = async (area: Area = 'global') => {
    const app = await tree.boot(area);
    apps.push(app);
    return app;
  };

  /** Declares `body` in Fixture_Dispatch's di.xml, boots, calls dispatch() and answers the call log. */
  const dispatchWith = async (body: string, options: { area?: Area; service?: string } = {}) => {
    if (body) tree.module('Fixture_Dispatch', { files: { 'etc/di.xml': configXml(PREFERENCE + body) } });
    const app = await boot(options.area);
    const log: string[] = [];
    const result = await app.get<DispatcherInterface>(options.service ?? API).dispatch(log);
    return { log, result, app };
  };

  describe('when PluginA/B/C (sortOrder 10/20/30) intercept dispatch(), as in the Magento docs table', () => {
    it('should run row 1 (all three have before and after) in the documented order', async () => {
      const { log, result } = await dispatchWith(
        on(API, plugin('c', 'PluginC', 30), plugin('a', 'PluginA', 10), plugin('b', 'PluginB', 20)),
      );
      expect(log).to.deep.equal(TABLE.allBeforeAndAfter);
      expect(result).to.equal('dispatched');
    });

    it('should run row 2 (B also has around) in the documented order', async () => {
      const { log, result } = await dispatchWith(
        on(API, plugin('c', 'PluginC', 30), plugin('b', 'PluginBAround', 20), plugin('a', 'PluginA', 10)),
      );
      expect(log).to.deep.equal(TABLE.bAlsoAround);
      expect(result).to.equal('dispatched');
    });

    it('should run row 3 (A and C also have around) in the documented order', async () => {
      const { log, result } = await dispatchWith(
        on(API, plugin('b', 'PluginB', 20), plugin('c', 'PluginCAround', 30), plugin('a', 'PluginAAround', 10)),
      );
      expect(log).to.deep.equal(TABLE.aAndCAlsoAround);
      expect(result).to.equal('dispatched');
    });

    it('should run the same orders when sync and async plugin methods are mixed', async () => {
      let run = await dispatchWith(
        on(API, plugin('a', 'PluginA', 10), plugin('b', 'AsyncPluginBAround', 20), plugin('c', 'PluginC', 30)),
      );
      expect(run.log).to.deep.equal(TABLE.bAlsoAround);
      tree.remove();
      tree = ModuleTree.create('runtime');
      run = await dispatchWith(
        on(API, plugin('a', 'AsyncPluginAAround', 10), plugin('b', 'PluginB', 20), plugin('c', 'PluginCAround', 30)),
      );
      expect(run.log).to.deep.equal(TABLE.aAndCAlsoAround);
      expect(run.result).to.equal('dispatched');
    });
  });

  describe('when plugins have equal or missing sortOrders', () => {
    it("should count a plugin without a sortOrder as 0 (Magento's Mapper/Dom) and keep declaration order on ties", async () => {
      const { log } = await dispatchWith(
        on(API, plugin('c', 'PluginC', 5), plugin('b', 'PluginB', -5), plugin('a', 'PluginA')),
      );
      expect(log).to.deep.equal(['B.before', 'A.before', 'C.before', 'dispatch', 'B.after', 'A.after', 'C.after']);
    });

    it('should put a plugin without a sortOrder after an explicit 0 declared before it', async () => {
      const { log } = await dispatchWith(on(API, plugin('b', 'PluginB', 0), plugin('a', 'PluginA')));
      expect(log).to.deep.equal(['B.before', 'A.before', 'dispatch', 'B.after', 'A.after']);
    });

    it('should keep module load order on ties across modules', async () => {
      tree.module('Fixture_Dispatch', {
        files: { 'etc/di.xml': configXml(PREFERENCE + on(API, plugin('b', 'PluginB', 10))) },
      });
      tree.module('Aaa_Later', {
        sequence: ['Fixture_Dispatch'],
        files: { 'etc/di.xml': configXml(on(API, plugin('a', 'PluginA', 10))) },
      });
      const { log } = await dispatchWith('');
      expect(log).to.deep.equal(['B.before', 'A.before', 'dispatch', 'B.after', 'A.after']);
    });
  });

  describe('when a before plugin returns new arguments', () => {
    it('should call the method with them, and give the after method of its level the changed arguments', async () => {
      tree.module('Fixture_Dispatch', {
        files: {
          'etc/di.xml': configXml(
            PREFERENCE + on(API, plugin('keep', 'KeepArgsPlugin', 10), plugin('args', 'ArgsPlugin', 20)),
          ),
        },
      });
      const app = await boot();
      const log: string[] = [];
      const result = await app.get<DispatcherInterface>(API).calc(log, 1, 2);
      expect(log).to.deep.equal(['keep.before(1,2)', 'args.before(1,2)', 'calc(10,2)', 'args.after(10,2)=12']);
      expect(result).to.equal(12);
    });

    it('should keep the arguments when it returns null or undefined', async () => {
      tree.module('Fixture_Dispatch', {
        files: { 'etc/di.xml': configXml(PREFERENCE + on(API, plugin('keep', 'KeepArgsPlugin'))) },
      });
      const app = await boot();
      const log: string[] = [];
      expect(await app.get<DispatcherInterface>(API).calc(log, 1, 2)).to.equal(3);
      expect(await app.get<DispatcherInterface>(API).dispatch(log)).to.equal('dispatched');
      expect(log).to.deep.equal(['keep.before(1,2)', 'calc(1,2)', 'keep.before', 'dispatch']);
    });
  });

  describe('when an after plugin returns a new result', () => {
    it('should answer that result', async () => {
      tree.module('Fixture_Dispatch', {
        files: {
          'etc/di.xml': configXml(
            PREFERENCE + on(API, plugin('result', 'ResultPlugin'), plugin('args', 'ArgsPlugin', 1)),
          ),
        },
      });
      const app = await boot();
      const log: string[] = [];
      expect(await app.get<DispatcherInterface>(API).calc(log, 1, 2)).to.equal(1012);
      expect(log).to.deep.equal(['args.before(1,2)', 'calc(10,2)', 'result.after(12)', 'args.after(10,2)=1012']);
    });
  });

  describe('when an around plugin does not call proceed', () => {
    it('should skip the deeper plugins and the method, and answer its own result', async () => {
      const { log, result } = await dispatchWith(
        on(API, plugin('a', 'PluginA', 10), plugin('short', 'ShortCircuitPlugin', 20), plugin('c', 'PluginC', 30)),
      );
      expect(log).to.deep.equal(['A.before', 'short.around', 'A.after']);
      expect(result).to.equal('short-circuited');
    });
  });

  describe('when a plugin is disabled', () => {
    it('should not run it', async () => {
      const { log } = await dispatchWith(
        on(
          API,
          plugin('a', 'PluginA', 10),
          plugin('b', 'PluginBAround', 20, ' disabled="true"'),
          plugin('c', 'PluginC', 30),
        ),
      );
      expect(log).to.deep.equal(['A.before', 'C.before', 'dispatch', 'A.after', 'C.after']);
    });

    it('should not check the methods of a disabled plugin', async () => {
      const { log } = await dispatchWith(on(API, plugin('bad', 'BadPlugin', 10, ' disabled="true"')));
      expect(log).to.deep.equal(['dispatch']);
    });
  });

  describe('when a later module declares a plugin of the same name', () => {
    beforeEach(() => {
      tree.module('Fixture_Dispatch', {
        files: {
          'etc/di.xml': configXml(
            PREFERENCE + on(API, plugin('a', 'PluginA', 10), plugin('b', 'PluginB', 20), plugin('c', 'PluginC', 30)),
          ),
        },
      });
    });

    it('should override sortOrder and disabled by name', async () => {
      tree.module('Fixture_Override', {
        sequence: ['Fixture_Dispatch'],
        files: {
          'etc/di.xml': configXml(on(API, plugin('c', null, 5), plugin('a', null, undefined, ' disabled="true"'))),
        },
      });
      const { log } = await dispatchWith('');
      expect(log).to.deep.equal(['C.before', 'B.before', 'dispatch', 'C.after', 'B.after']);
    });

    it('should override the plugin class by name, keeping its sortOrder', async () => {
      tree.module('Fixture_Override', {
        sequence: ['Fixture_Dispatch'],
        files: { 'etc/di.xml': configXml(on(API, plugin('b', 'PluginBAround'))) },
      });
      const { log } = await dispatchWith('');
      expect(log).to.deep.equal(TABLE.bAlsoAround);
    });

    it('should switch a disabled plugin back on', async () => {
      tree.module('Fixture_Override', {
        sequence: ['Fixture_Dispatch'],
        files: { 'etc/di.xml': configXml(on(API, plugin('b', null, undefined, ' disabled="true"'))) },
      });
      tree.module('Fixture_Third', {
        sequence: ['Fixture_Override'],
        files: { 'etc/di.xml': configXml(on(API, plugin('b', null, undefined, ' disabled="false"'))) },
      });
      const { log } = await dispatchWith('');
      expect(log).to.deep.equal(TABLE.allBeforeAndAfter);
    });
  });

  describe('when a plugin is declared only in etc/webapi_rest/di.xml', () => {
    beforeEach(() => {
      tree.module('Fixture_Dispatch', {
        files: {
          'etc/di.xml': configXml(PREFERENCE + on(API, plugin('a', 'PluginA', 10), plugin('c', 'PluginC', 30))),
          'etc/webapi_rest/di.xml': configXml(
            on(API, plugin('b', 'PluginBAround', 20), plugin('c', null, undefined, ' disabled="true"')),
          ),
        },
      });
    });

    it('should apply it in the webapi_rest area, over the global file', async () => {
      const { log } = await dispatchWith('', { area: 'webapi_rest' });
      expect(log).to.deep.equal([
        'A.before',
        'B.before',
        'B.around (first half)',
        'dispatch',
        'B.around (second half)',
        'A.after',
        'B.after',
      ]);
    });

    it('should not apply it in the global area', async () => {
      const { log } = await dispatchWith('', { area: 'global' });
      expect(log).to.deep.equal(['A.before', 'C.before', 'dispatch', 'A.after', 'C.after']);
    });
  });

  describe('when a plugin is declared on a contract', () => {
    it('should apply to the class that serves it, however it is asked for', async () => {
      const { log, app } = await dispatchWith(on(API, plugin('a', 'PluginA')));
      expect(log).to.deep.equal(['A.before', 'dispatch', 'A.after']);
      const byClass = app.get<Dispatcher>(DISPATCHER);
      expect(byClass).to.equal(app.get(API));
      expect(byClass).to.be.instanceOf(Dispatcher);
      const again: string[] = [];
      await byClass.dispatch(again);
      expect(again).to.deep.equal(['A.before', 'dispatch', 'A.after']);
    });
  });

  describe('when a plugin is declared on a parent class', () => {
    it("should apply to a subclass too, with the subclass's own plugins", async () => {
      const { log, app } = await dispatchWith(
        on(DISPATCHER, plugin('a', 'PluginA', 10)) + on(SPECIAL, plugin('b', 'PluginB', 20)),
        { service: SPECIAL },
      );
      expect(log).to.deep.equal(['A.before', 'B.before', 'special', 'dispatch', 'A.after', 'B.after']);
      expect(app.get(SPECIAL)).to.be.instanceOf(SpecialDispatcher);
      const parent: string[] = [];
      await app.get<Dispatcher>(DISPATCHER).dispatch(parent);
      expect(parent).to.deep.equal(['A.before', 'dispatch', 'A.after']);
    });
  });

  describe('when the chains are composed', () => {
    it('should compose them once and share one plugin instance across calls and targets', async () => {
      PluginA.instances = 0;
      PluginBAround.instances = 0;
      tree.module('Fixture_Dispatch', {
        files: {
          'etc/di.xml': configXml(
            PREFERENCE +
              `<type name="${DISPATCHER}" shared="false"/>` +
              on(API, plugin('a', 'PluginA', 10), plugin('b', 'PluginBAround', 20)),
          ),
        },
      });
      const app = await boot();
      expect(PluginA.instances, 'plugins are built lazily').to.equal(0);
      const chains = app.objectManager.chainsOf(API);
      const first = app.get<Dispatcher>(API);
      const second = app.get<Dispatcher>(API);
      expect(first).not.to.equal(second);
      const method = first.dispatch;
      for (let i = 0; i < 3; i++) {
        await first.dispatch([]);
        await second.dispatch([]);
      }
      expect(PluginA.instances).to.equal(1);
      expect(PluginBAround.instances).to.equal(1);
      expect(first.dispatch).to.equal(method);
      expect(second.dispatch).to.equal(method);
      expect(Object.prototype.hasOwnProperty.call(first, 'dispatch'), 'no per-instance wrapper').to.equal(false);
      expect(app.objectManager.chainsOf(API)).to.equal(chains);
      expect(chains.get('dispatch')!.map((level) => level.around?.plugin.name ?? null)).to.deep.equal(['b', null]);
    });

    it('should not intercept methods no plugin touches', async () => {
      const { app } = await dispatchWith(on(API, plugin('a', 'PluginA')));
      const dispatcher = app.get<Dispatcher>(API);
      expect(dispatcher.calc).to.equal(Dispatcher.prototype.calc);
      expect([...app.objectManager.chainsOf(API).keys()]).to.deep.equal(['dispatch']);
    });
  });

  describe('when the target method is synchronous', () => {
    beforeEach(() => {
      tree.module('Fixture_Dispatch', {
        files: { 'etc/di.xml': configXml(on(`${NS}\\Model\\Formatter`, plugin('format', 'FormatPlugin'))) },
      });
    });

    it('should stay synchronous when every plugin method is', async () => {
      const app = await boot();
      const formatter = app.get<{ format(name: string): string }>(`${NS}\\Model\\Formatter`);
      expect(formatter.format('  ann ')).to.equal('<ANN>!');
    });

    it('should keep an async method async: a plugin that throws rejects the promise', async () => {
      const app = await boot();
      const formatter = app.get<{ check(value: number): Promise<number> }>(`${NS}\\Model\\Formatter`);
      expect(await formatter.check(2)).to.equal(2);
      let thrownSynchronously = false;
      let promise: Promise<number> | undefined;
      try {
        promise = formatter.check(13);
      } catch {
        thrownSynchronously = true;
      }
      expect(thrownSynchronously).to.equal(false);
      const outcome = await promise!.then(
        () => 'resolved',
        (error: Error) => error.message,
      );
      expect(outcome).to.equal('unlucky');
    });
  });

  describe('when a plugin is wrong', () => {
    it('should fail at start-up on a plugin method that matches no method of the target, naming it', async () => {
      tree.module('Fixture_Dispatch', {
        files: { 'etc/di.xml': configXml(PREFERENCE + on(API, plugin('bad', 'BadPlugin', 10))) },
      });
      await expectConfigError(
        () => boot(),
        tree.path('Fixture_Dispatch', 'etc/di.xml'),
        '"bad"',
        `${NS}\\Plugin\\BadPlugin`,
        `${API}::noSuchMethod()`,
      );
    });

    it('should fail at start-up on a plugin class that does not resolve, naming the file and the class', async () => {
      tree.module('Fixture_Dispatch', {
        files: { 'etc/di.xml': configXml(PREFERENCE + on(API, plugin('ghost', 'GhostPlugin'))) },
      });
      await expectConfigError(() => boot(), tree.path('Fixture_Dispatch', 'etc/di.xml'), `${NS}\\Plugin\\GhostPlugin`);
    });

    it('should fail at start-up on a plugin without a type, naming it', async () => {
      tree.module('Fixture_Dispatch', {
        files: { 'etc/di.xml': configXml(PREFERENCE + on(API, plugin('typeless', null, 10))) },
      });
      await expectConfigError(() => boot(), tree.path('Fixture_Dispatch', 'etc/di.xml'), '"typeless"');
    });
  });
});
