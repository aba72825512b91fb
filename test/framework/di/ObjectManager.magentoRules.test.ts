/**
 * The di.xml rules a Magento developer found different from Magento 2.4 (issue 9), each checked
 * against the behaviour of Magento's ObjectManager and PluginList. Every test here failed before.
 */
import path from 'node:path';
import { expect } from 'chai';
import { runCli } from '../../../app/cli/Cli.js';
import { constructorParameters } from '../../../app/framework/di/constructorParameters.js';
import type { Configurable } from '../../fixtures/runtime/modules/Fixture/Container/Model/Configurable.js';
import { Greeter } from '../../fixtures/runtime/modules/Fixture/Container/Model/Greeter.js';
import { Tricky } from '../../fixtures/runtime/modules/Fixture/Container/Model/Tricky.js';
import type { DispatcherInterface } from '../../fixtures/runtime/modules/Fixture/Dispatch/Api/DispatcherInterface.js';
import { PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { implementedContracts } from '../../../app/framework/compile/implementedContracts.js';
import { ModuleTree, configXml, expectConfigError, fixtureSourceDir } from '../support/moduleTree.js';

const C = 'Fixture\\Container';
const GREETER_API = `${C}\\Api\\GreeterInterface`;
const GREETER = `${C}\\Model\\Greeter`;
const CONFIGURABLE = `${C}\\Model\\Configurable`;
const TRICKY = `${C}\\Model\\Tricky`;
const D = 'Fixture\\Dispatch';
const API = `${D}\\Api\\DispatcherInterface`;
const DISPATCHER = `${D}\\Model\\Dispatcher`;
const SPECIAL = `${D}\\Model\\SpecialDispatcher`;
const OTHER = `${D}\\Model\\OtherDispatcher`;
const OTHER_SUB = `${D}\\Model\\OtherSubDispatcher`;
const TYPED = `${D}\\Model\\TypedDispatcher`;
const TYPED_SUB = `${D}\\Model\\TypedSubDispatcher`;

const BASE_ARGS = `
  <preference for="${GREETER_API}" type="${GREETER}"/>
  <type name="${CONFIGURABLE}">
    <arguments>
      <argument name="greeting" xsi:type="string">hello</argument>
      <argument name="count" xsi:type="number">3</argument>
      <argument name="enabled" xsi:type="boolean">true</argument>
      <argument name="nothing" xsi:type="null"/>
      <argument name="options" xsi:type="array">
        <item name="colour" xsi:type="string">green</item>
        <item name="sizes" xsi:type="array"><item name="small" xsi:type="number">1</item></item>
      </argument>
      <argument name="helper" xsi:type="object">${GREETER}</argument>
    </arguments>
  </type>`;

function plugin(name: string, cls: string | null, sortOrder?: number, extra = ''): string {
  return `<plugin name="${name}"${cls ? ` type="${D}\\Plugin\\${cls}"` : ''}${sortOrder === undefined ? '' : ` sortOrder="${sortOrder}"`}${extra}/>`;
}

describe('di.xml rules as in Magento 2.4', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
    Greeter.created = 0;
  });
  afterEach(() => tree.dispose());

  const boot = async (module: string, body: string) => {
    tree.module(module, { files: { 'etc/di.xml': configXml(body) } });
    return tree.boot('global');
  };

  describe('when a virtual type sets an array argument', () => {
    it("should merge it item by item with the parent type's array", async () => {
      const om = (
        await boot(
          'Fixture_Container',
          `${BASE_ARGS}
          <virtualType name="frenchConfigurable" type="${CONFIGURABLE}">
            <arguments>
              <argument name="options" xsi:type="array">
                <item name="colour" xsi:type="string">vert</item>
                <item name="sizes" xsi:type="array"><item name="large" xsi:type="number">3</item></item>
              </argument>
            </arguments>
          </virtualType>`,
        )
      ).objectManager;
      const french = om.get<Configurable>('frenchConfigurable');
      expect(french.options).to.deep.equal({ colour: 'vert', sizes: { small: 1, large: 3 } });
      expect(om.get<Configurable>(CONFIGURABLE).options).to.deep.equal({ colour: 'green', sizes: { small: 1 } });
    });
  });

  describe('when a <preference> names a virtual type (issue 30)', () => {
    it('should serve the contract with the virtual type, its arguments applied', async () => {
      const om = (
        await boot(
          'Fixture_Container',
          `${BASE_ARGS}
          <preference for="${GREETER_API}" type="loudVirtualGreeter"/>
          <virtualType name="loudVirtualGreeter" type="${C}\\Model\\LoudGreeter"/>`,
        )
      ).objectManager;
      expect(om.get<Greeter>(GREETER_API).greet('Ann')).to.equal('HELLO, ANN');
      expect(om.get(GREETER_API)).to.equal(om.get('loudVirtualGreeter'));
    });

    it('should accept a plugin whose type is a virtual type, running the class it varies', async () => {
      const om = (
        await boot(
          'Fixture_Dispatch',
          `<preference for="${API}" type="${DISPATCHER}"/>
          <virtualType name="virtualPluginA" type="${D}\\Plugin\\PluginA"/>
          <type name="${API}"><plugin name="a" type="virtualPluginA"/></type>`,
        )
      ).objectManager;
      const log: string[] = [];
      await om.get<DispatcherInterface>(API).dispatch(log);
      expect(log).to.deep.equal(['A.before', 'dispatch', 'A.after']);
    });
  });

  describe('when an object argument says shared="false"', () => {
    it('should inject a new instance, not the shared one', async () => {
      const om = (
        await boot(
          'Fixture_Container',
          `${BASE_ARGS}
          <type name="${CONFIGURABLE}"><arguments><argument name="helper" xsi:type="object" shared="false">${GREETER}</argument>
            <argument name="options" xsi:type="array"><item name="fresh" xsi:type="object" shared="false">${GREETER_API}</item><item name="same" xsi:type="object">${GREETER_API}</item></argument>
          </arguments></type>`,
        )
      ).objectManager;
      const shared = om.get<Greeter>(GREETER);
      const configurable = om.get<Configurable>(CONFIGURABLE);
      expect(configurable.helper).to.be.instanceOf(Greeter).and.not.equal(shared);
      expect(configurable.options.fresh).to.be.instanceOf(Greeter).and.not.equal(shared);
      expect(configurable.options.same).to.equal(shared);
      expect(Greeter.created).to.equal(3);
    });
  });

  describe('when a virtual type varies a shared="false" class', () => {
    it('should be shared unless it says shared="false" itself (shared is looked up by the exact name)', async () => {
      const om = (
        await boot(
          'Fixture_Container',
          `${BASE_ARGS}
          <type name="${CONFIGURABLE}" shared="false"/>
          <virtualType name="sharedVariant" type="${CONFIGURABLE}"/>
          <virtualType name="freshVariant" type="${CONFIGURABLE}" shared="false"/>`,
        )
      ).objectManager;
      expect(om.get(CONFIGURABLE)).not.to.equal(om.get(CONFIGURABLE));
      expect(om.get('sharedVariant')).to.equal(om.get('sharedVariant'));
      expect(om.get('freshVariant')).not.to.equal(om.get('freshVariant'));
    });
  });

  describe('when a plugin is declared on a contract', () => {
    const PLUGINS = `<preference for="${API}" type="${DISPATCHER}"/>
      <type name="${API}">${plugin('a', 'PluginA', 10)}${plugin('b', 'PluginB', 20)}</type>
      <type name="${OTHER}"/><type name="${OTHER_SUB}"/>`;

    it('should wrap a class that implements it without being its preference, and its subclasses', async () => {
      const om = (await boot('Fixture_Dispatch', PLUGINS)).objectManager;
      for (const name of [OTHER, OTHER_SUB]) {
        const log: string[] = [];
        await om.get<DispatcherInterface>(name).dispatch(log);
        expect(log, name).to.deep.equal(['A.before', 'B.before', 'other', 'A.after', 'B.after']);
      }
    });

    it('should wrap a class that `implements` it in TypeScript only (read by setup:di:compile), and its subclasses', async () => {
      const dir = path.join(fixtureSourceDir('runtime'), 'Fixture', 'Dispatch');
      const implemented = implementedContracts(
        [{ name: 'Fixture_Dispatch', vendor: 'Fixture', module: 'Dispatch', dir, codeDir: dir, sequence: [] }],
        PROJECT_ROOT,
      );
      expect(implemented[TYPED]).to.deep.equal([API]);
      expect(implemented[TYPED_SUB], 'inherited').to.deep.equal([API]);
      const body = `${PLUGINS}<type name="${TYPED}"/><type name="${TYPED_SUB}"/>`;
      tree.module('Fixture_Dispatch', { files: { 'etc/di.xml': configXml(body) } });
      const om = (await tree.boot('global', { implementedContracts: implemented })).objectManager;
      for (const name of [TYPED, TYPED_SUB]) {
        const log: string[] = [];
        await om.get<DispatcherInterface>(name).dispatch(log);
        expect(log, name).to.deep.equal(['A.before', 'B.before', 'typed', 'A.after', 'B.after']);
      }
      const unwrapped = (await tree.boot('global', { implementedContracts: {} })).objectManager;
      const log: string[] = [];
      await unwrapped.get<DispatcherInterface>(TYPED).dispatch(log);
      expect(log, 'without the metadata, nothing says it implements the contract').to.deep.equal(['typed']);
    });

    it('should let the implementing class disable it by name, for that class only', async () => {
      tree.module('Fixture_Later', {
        sequence: ['Fixture_Dispatch'],
        files: {
          'etc/di.xml': configXml(`<type name="${OTHER}">${plugin('a', null, undefined, ' disabled="true"')}</type>`),
        },
      });
      const om = (await boot('Fixture_Dispatch', PLUGINS)).objectManager;
      const other: string[] = [];
      await om.get<DispatcherInterface>(OTHER).dispatch(other);
      expect(other).to.deep.equal(['B.before', 'other', 'B.after']);
      const sub: string[] = [];
      await om.get<DispatcherInterface>(OTHER_SUB).dispatch(sub);
      expect(sub, 'a subclass inherits the change').to.deep.equal(['B.before', 'other', 'B.after']);
      const preferred: string[] = [];
      await om.get<DispatcherInterface>(API).dispatch(preferred);
      expect(preferred).to.deep.equal(['A.before', 'B.before', 'dispatch', 'A.after', 'B.after']);
    });

    it('should let a subclass change its sortOrder by name, for the subclass only', async () => {
      const om = (await boot('Fixture_Dispatch', `${PLUGINS}<type name="${SPECIAL}">${plugin('b', null, 1)}</type>`))
        .objectManager;
      const special: string[] = [];
      await om.get<DispatcherInterface>(SPECIAL).dispatch(special);
      expect(special).to.deep.equal(['B.before', 'A.before', 'special', 'dispatch', 'B.after', 'A.after']);
      const preferred: string[] = [];
      await om.get<DispatcherInterface>(API).dispatch(preferred);
      expect(preferred).to.deep.equal(['A.before', 'B.before', 'dispatch', 'A.after', 'B.after']);
    });

    it("should pass a plugin disabled on the preference's class down to its subclasses", async () => {
      const om = (
        await boot(
          'Fixture_Dispatch',
          `${PLUGINS}<type name="${DISPATCHER}">${plugin('b', null, undefined, ' disabled="true"')}</type><type name="${SPECIAL}"/>`,
        )
      ).objectManager;
      for (const [name, expected] of [
        [API, ['A.before', 'dispatch', 'A.after']],
        [SPECIAL, ['A.before', 'special', 'dispatch', 'A.after']],
        [OTHER, ['A.before', 'B.before', 'other', 'A.after', 'B.after']],
      ] as const) {
        const log: string[] = [];
        await om.get<DispatcherInterface>(name).dispatch(log);
        expect(log, name).to.deep.equal(expected);
      }
    });

    it('should report a preference cycle elsewhere instead of looping while it looks for contracts', async () => {
      // Bound after the plugins' classes, and the cycle does not pass through the contract it starts from.
      tree.module('Fixture_Dispatch', { files: { 'etc/di.xml': configXml(PLUGINS) } });
      tree.module('Fixture_Container', {
        sequence: ['Fixture_Dispatch'],
        files: {
          'etc/di.xml': configXml(
            `<preference for="${GREETER_API}" type="${GREETER}"/><preference for="${GREETER}" type="${C}\\Model\\LoudGreeter"/><preference for="${C}\\Model\\LoudGreeter" type="${GREETER}"/>`,
          ),
        },
      });
      await expectConfigError(() => tree.boot('global'), 'Preference cycle');
    });

    it('should show the merged chain of the implementing class in dev:plugin:list', async () => {
      tree.module('Fixture_Dispatch', {
        files: { 'etc/di.xml': configXml(`${PLUGINS}<type name="${OTHER}">${plugin('b', null, 5)}</type>`) },
      });
      const out: string[] = [];
      const code = await runCli(
        ['node', 'cli', 'dev:plugin:list', OTHER, 'dispatch', '--area', 'global'],
        { out: (l) => out.push(...l.split('\n')), err: () => undefined },
        tree.options(),
      );
      expect(code).to.equal(0);
      expect(out).to.deep.equal([
        `${OTHER}, area global:`,
        '  dispatch():',
        `    b::beforeDispatch (${D}\\Plugin\\PluginB, sortOrder 5)`,
        `    a::beforeDispatch (${D}\\Plugin\\PluginA, sortOrder 10)`,
        '    dispatch() itself',
        `    b::afterDispatch (${D}\\Plugin\\PluginB, sortOrder 5)`,
        `    a::afterDispatch (${D}\\Plugin\\PluginA, sortOrder 10)`,
      ]);
    });
  });

  describe('when constructor parameters are matched to argument names', () => {
    it('should read names with a real parser: comments, defaults with commas and parentheses, destructuring', () => {
      expect(constructorParameters(Tricky)).to.deep.equal([
        { name: 'greeting', hasDefault: false },
        { name: 'separator', hasDefault: true },
        { name: 'options', hasDefault: true },
        { name: null, hasDefault: true },
        { name: 'last', hasDefault: true },
      ]);
    });

    it('should build such a class from di.xml arguments, keeping the defaults', async () => {
      const om = (
        await boot(
          'Fixture_Container',
          `<type name="${TRICKY}"><arguments>
          <argument name="greeting" xsi:type="string">hi</argument>
          <argument name="last" xsi:type="string">given</argument>
        </arguments></type>`,
        )
      ).objectManager;
      const tricky = om.get<Tricky>(TRICKY);
      expect([tricky.greeting, tricky.separator, tricky.options, tricky.flag, tricky.last]).to.deep.equal([
        'hi',
        ', ',
        { a: 1, b: 2 },
        false,
        'given',
      ]);
    });
  });

  describe('when an argument is xsi:type="const"', () => {
    it('should resolve Vendor\\Module\\Path\\Name::CONSTANT to an exported constant or a static property', async () => {
      const om = (
        await boot(
          'Fixture_Container',
          `${BASE_ARGS}<type name="${CONFIGURABLE}"><arguments>
          <argument name="greeting" xsi:type="const">${C}\\Model\\Mode::GREETING</argument>
          <argument name="count" xsi:type="const">${C}\\Model\\Mode::DEFAULT_COUNT</argument>
          <argument name="options" xsi:type="array"><item name="mode" xsi:type="const">${C}\\Model\\Mode::PARAM_DATABASE_URL</item></argument>
        </arguments></type>`,
        )
      ).objectManager;
      const configurable = om.get<Configurable>(CONFIGURABLE);
      expect([configurable.greeting, configurable.count, configurable.options.mode]).to.deep.equal([
        'hello from a constant',
        7,
        'databaseUrl',
      ]);
    });

    it('should fail at start-up on a constant that does not exist, naming the file and the reference', async () => {
      tree.module('Fixture_Container', {
        files: {
          'etc/di.xml': configXml(
            `${BASE_ARGS}<type name="${CONFIGURABLE}"><arguments><argument name="greeting" xsi:type="const">${C}\\Model\\Mode::NOPE</argument></arguments></type>`,
          ),
        },
      });
      await expectConfigError(
        () => tree.boot('global'),
        tree.path('Fixture_Container', 'etc/di.xml'),
        `${C}\\Model\\Mode::NOPE`,
      );
    });
  });

  describe('when a const reference is malformed', () => {
    it('should fail at start-up saying how to write it', async () => {
      tree.module('Fixture_Container', {
        files: {
          'etc/di.xml': configXml(
            `${BASE_ARGS}<type name="${CONFIGURABLE}"><arguments><argument name="greeting" xsi:type="const">Mode::GREETING</argument></arguments></type>`,
          ),
        },
      });
      await expectConfigError(
        () => tree.boot('global'),
        tree.path('Fixture_Container', 'etc/di.xml'),
        'Vendor\\Module\\Path\\Name::CONSTANT',
        '"Mode::GREETING"',
      );
    });
  });

  describe('when an argument is xsi:type="init_parameter"', () => {
    it('should inject the deployment setting named directly or by a constant', async () => {
      const om = (
        await boot(
          'Fixture_Container',
          `${BASE_ARGS}<type name="${CONFIGURABLE}"><arguments>
          <argument name="greeting" xsi:type="init_parameter">databaseUrl</argument>
          <argument name="enabled" xsi:type="init_parameter">${C}\\Model\\Mode::PARAM_DATABASE_URL</argument>
        </arguments></type>`,
        )
      ).objectManager;
      const configurable = om.get<Configurable>(CONFIGURABLE);
      expect(configurable.greeting).to.equal('sqlite::memory:');
      expect(configurable.enabled).to.equal('sqlite::memory:');
    });

    it('should fail at start-up on an unknown setting, naming the file and listing the known ones', async () => {
      tree.module('Fixture_Container', {
        files: {
          'etc/di.xml': configXml(
            `${BASE_ARGS}<type name="${CONFIGURABLE}"><arguments><argument name="greeting" xsi:type="init_parameter">MAGE_DIRS</argument></arguments></type>`,
          ),
        },
      });
      await expectConfigError(
        () => tree.boot('global'),
        tree.path('Fixture_Container', 'etc/di.xml'),
        '"MAGE_DIRS"',
        'databaseUrl',
      );
    });
  });
});
