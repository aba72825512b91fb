import { expect } from 'chai';
import { readDiConfig, type ArgumentValue, type DiConfig } from '../../../app/framework/config/DiConfig.js';
import { loadModules } from '../../../app/framework/module/ModuleLoader.js';
import { ModuleTree, configXml, expectConfigError } from '../support/moduleTree.js';

/** Turns a parsed argument back into plain data, to compare with deep.equal. */
function plain(value: ArgumentValue | undefined): unknown {
  if (!value) return undefined;
  switch (value.kind) {
    case 'null':
      return null;
    case 'object':
      return { object: value.type };
    case 'array':
      return Object.fromEntries([...value.items].map(([key, item]) => [key, plain(item)]));
    case 'const':
    case 'init_parameter':
      return { [value.kind]: value.ref };
    default:
      return value.value;
  }
}

describe('di.xml reader', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create();
  });
  afterEach(() => tree.remove());

  const read = (area: 'global' | 'webapi_rest' = 'global'): DiConfig =>
    readDiConfig(loadModules(tree.sources(), tree.configFile), area);
  const di = (module: string, body: string, file = 'etc/di.xml', sequence: string[] = []) =>
    tree.module(module, { sequence, files: { [file]: configXml(body) } });

  describe('when modules declare preferences', () => {
    it('should let a later module replace an earlier preference for the same contract', () => {
      di('Acme_Base', '<preference for="Acme\\Base\\Api\\FooInterface" type="Acme\\Base\\Model\\Foo"/>');
      di(
        'Acme_Custom',
        '<preference for="Acme\\Base\\Api\\FooInterface" type="Acme\\Custom\\Model\\BetterFoo"/>',
        'etc/di.xml',
        ['Acme_Base'],
      );
      const preference = read().preferences.get('Acme\\Base\\Api\\FooInterface');
      expect(preference?.type).to.equal('Acme\\Custom\\Model\\BetterFoo');
      expect(preference?.file).to.equal(tree.path('Acme_Custom', 'etc/di.xml'));
    });

    it('should follow load order, not alphabetical order, when merging', () => {
      // Zed_Base loads first because Acme_Custom depends on it.
      di('Zed_Base', '<preference for="Zed\\Base\\Api\\FooInterface" type="Zed\\Base\\Model\\Foo"/>');
      di(
        'Acme_Custom',
        '<preference for="Zed\\Base\\Api\\FooInterface" type="Acme\\Custom\\Model\\Foo"/>',
        'etc/di.xml',
        ['Zed_Base'],
      );
      expect(read().preferences.get('Zed\\Base\\Api\\FooInterface')?.type).to.equal('Acme\\Custom\\Model\\Foo');
    });
  });

  describe('when a type has arguments', () => {
    it('should read every xsi:type', () => {
      di(
        'Acme_Base',
        `<type name="Acme\\Base\\Model\\Foo">
          <arguments>
            <argument name="title" xsi:type="string">Hello &amp; welcome</argument>
            <argument name="empty" xsi:type="string"></argument>
            <argument name="limit" xsi:type="number">42.5</argument>
            <argument name="on" xsi:type="boolean">true</argument>
            <argument name="off" xsi:type="boolean">0</argument>
            <argument name="nothing" xsi:type="null"/>
            <argument name="helper" xsi:type="object">Acme\\Base\\Model\\Helper</argument>
            <argument name="list" xsi:type="array">
              <item name="first" xsi:type="string">one</item>
              <item name="nested" xsi:type="array">
                <item name="deep" xsi:type="number">3</item>
              </item>
              <item name="service" xsi:type="object">Acme\\Base\\Model\\Service</item>
            </argument>
          </arguments>
        </type>`,
      );
      const args = read().types.get('Acme\\Base\\Model\\Foo')!.arguments;
      expect(Object.fromEntries([...args].map(([key, value]) => [key, plain(value)]))).to.deep.equal({
        title: 'Hello & welcome',
        empty: '',
        limit: 42.5,
        on: true,
        off: false,
        nothing: null,
        helper: { object: 'Acme\\Base\\Model\\Helper' },
        list: { first: 'one', nested: { deep: 3 }, service: { object: 'Acme\\Base\\Model\\Service' } },
      });
    });

    it('should merge array arguments item by item across modules, and replace other arguments', () => {
      di(
        'Acme_Base',
        `<type name="Framework\\Console\\CommandList"><arguments>
          <argument name="commands" xsi:type="array">
            <item name="a" xsi:type="string">base a</item>
            <item name="b" xsi:type="string">base b</item>
            <item name="group" xsi:type="array"><item name="x" xsi:type="number">1</item></item>
          </argument>
          <argument name="title" xsi:type="string">base</argument>
        </arguments></type>`,
      );
      di(
        'Acme_Custom',
        `<type name="Framework\\Console\\CommandList"><arguments>
          <argument name="commands" xsi:type="array">
            <item name="b" xsi:type="string">custom b</item>
            <item name="c" xsi:type="string">custom c</item>
            <item name="group" xsi:type="array"><item name="y" xsi:type="number">2</item></item>
          </argument>
          <argument name="title" xsi:type="string">custom</argument>
        </arguments></type>`,
        'etc/di.xml',
        ['Acme_Base'],
      );
      const args = read().types.get('Framework\\Console\\CommandList')!.arguments;
      expect(plain(args.get('commands'))).to.deep.equal({
        a: 'base a',
        b: 'custom b',
        group: { x: 1, y: 2 },
        c: 'custom c',
      });
      expect(plain(args.get('title'))).to.equal('custom');
    });

    it('should let a later module replace an array argument by a scalar of the same name', () => {
      di(
        'Acme_Base',
        '<type name="Acme\\Base\\Model\\Foo"><arguments><argument name="x" xsi:type="array"><item name="a" xsi:type="string">1</item></argument></arguments></type>',
      );
      di(
        'Acme_Custom',
        '<type name="Acme\\Base\\Model\\Foo"><arguments><argument name="x" xsi:type="null"/></arguments></type>',
        'etc/di.xml',
        ['Acme_Base'],
      );
      expect(plain(read().types.get('Acme\\Base\\Model\\Foo')!.arguments.get('x'))).to.equal(null);
    });
  });

  describe('when a virtualType or shared is declared', () => {
    it('should record the real type, its own arguments and shared', () => {
      di(
        'Acme_Base',
        `<type name="Acme\\Base\\Model\\Foo" shared="false"/>
         <virtualType name="acmeFooVariant" type="Acme\\Base\\Model\\Foo" shared="true">
           <arguments><argument name="title" xsi:type="string">variant</argument></arguments>
         </virtualType>`,
      );
      const config = read();
      expect(config.types.get('Acme\\Base\\Model\\Foo')!.shared).to.equal(false);
      const variant = config.types.get('acmeFooVariant')!;
      expect(variant.virtualOf).to.equal('Acme\\Base\\Model\\Foo');
      expect(variant.shared).to.equal(true);
      expect(plain(variant.arguments.get('title'))).to.equal('variant');
    });
  });

  describe('when plugins are declared in several modules and areas', () => {
    beforeEach(() => {
      di(
        'Acme_Base',
        `<type name="Acme\\Base\\Api\\FooInterface">
          <plugin name="log" type="Acme\\Base\\Plugin\\Log" sortOrder="10"/>
          <plugin name="cache" type="Acme\\Base\\Plugin\\Cache"/>
        </type>`,
      );
      di(
        'Acme_Custom',
        `<type name="Acme\\Base\\Api\\FooInterface">
          <plugin name="log" sortOrder="50"/>
          <plugin name="cache" disabled="true"/>
          <plugin name="audit" type="Acme\\Custom\\Plugin\\Audit" sortOrder="5"/>
        </type>`,
        'etc/di.xml',
        ['Acme_Base'],
      );
      tree.file(
        'Acme_Base',
        'etc/webapi_rest/di.xml',
        configXml(`<type name="Acme\\Base\\Api\\FooInterface">
          <plugin name="log" type="Acme\\Base\\Plugin\\RestLog"/>
          <plugin name="rest_only" type="Acme\\Base\\Plugin\\RestOnly" disabled="false"/>
        </type>`),
      );
    });

    it('should merge a later declaration of the same name attribute by attribute', () => {
      const log = read().types.get('Acme\\Base\\Api\\FooInterface')!.plugins.get('log')!;
      expect(log.type).to.equal('Acme\\Base\\Plugin\\Log');
      expect(log.sortOrder).to.equal(50);
      expect(log.files).to.deep.equal([tree.path('Acme_Base', 'etc/di.xml'), tree.path('Acme_Custom', 'etc/di.xml')]);
    });

    it('should leave a plugin switched off by disabled="true" out of the active plugins', () => {
      const config = read();
      expect(config.types.get('Acme\\Base\\Api\\FooInterface')!.plugins.get('cache')!.disabled).to.equal(true);
      expect(config.pluginsOn('Acme\\Base\\Api\\FooInterface').map((p) => p.name)).to.deep.equal(['log', 'audit']);
    });

    it('should apply the webapi_rest file over every global file, only in that area', () => {
      const global = read('global').types.get('Acme\\Base\\Api\\FooInterface')!.plugins;
      expect(global.has('rest_only')).to.equal(false);
      expect(global.get('log')!.type).to.equal('Acme\\Base\\Plugin\\Log');
      const rest = read('webapi_rest').types.get('Acme\\Base\\Api\\FooInterface')!.plugins;
      expect(rest.get('rest_only')!.type).to.equal('Acme\\Base\\Plugin\\RestOnly');
      // The area file of the first module wins over the global file of a later module.
      expect(rest.get('log')!.type).to.equal('Acme\\Base\\Plugin\\RestLog');
      expect(rest.get('log')!.sortOrder).to.equal(50);
    });

    it("should not read another area's file", () => {
      tree.file(
        'Acme_Base',
        'etc/crontab/di.xml',
        configXml(
          '<type name="Acme\\Base\\Api\\FooInterface"><plugin name="cron" type="Acme\\Base\\Plugin\\Cron"/></type>',
        ),
      );
      expect(read('webapi_rest').types.get('Acme\\Base\\Api\\FooInterface')!.plugins.has('cron')).to.equal(false);
    });
  });

  describe('when di.xml is invalid', () => {
    const file = () => tree.path('Acme_Base', 'etc/di.xml');

    const cases: [string, string, string[]][] = [
      ['an unknown top-level element', '<prefernce for="A\\B\\C" type="A\\B\\D"/>', ['<prefernce>']],
      [
        'an unknown element inside <type>',
        '<type name="A\\B\\C"><argument name="x" xsi:type="string">1</argument></type>',
        ['<argument>', '<type>'],
      ],
      [
        'an unknown element inside <arguments>',
        '<type name="A\\B\\C"><arguments><item name="x" xsi:type="string">1</item></arguments></type>',
        ['<item>'],
      ],
      [
        'an unknown attribute on <plugin>',
        '<type name="A\\B\\C"><plugin name="p" type="A\\B\\P" sort_order="1"/></type>',
        ['"sort_order"', '<plugin>'],
      ],
      [
        'an unknown attribute on <preference>',
        '<preference for="A\\B\\C" type="A\\B\\D" shared="false"/>',
        ['"shared"', '<preference>'],
      ],
      ['a missing required attribute', '<preference for="A\\B\\C"/>', ['"type"', '<preference>']],
      [
        'a bad xsi:type',
        '<type name="A\\B\\C"><arguments><argument name="x" xsi:type="int">1</argument></arguments></type>',
        ['"int"', 'A\\B\\C', '"x"'],
      ],
      [
        'a bad xsi:type on an item',
        '<type name="A\\B\\C"><arguments><argument name="x" xsi:type="array"><item name="i" xsi:type="const">1</item></argument></arguments></type>',
        ['"const"', '"i"'],
      ],
      [
        'a number argument that is not a number',
        '<type name="A\\B\\C"><arguments><argument name="x" xsi:type="number">ten</argument></arguments></type>',
        ['"ten"', '"x"'],
      ],
      [
        'a boolean argument that is not a boolean',
        '<type name="A\\B\\C"><arguments><argument name="x" xsi:type="boolean">yes</argument></arguments></type>',
        ['"yes"'],
      ],
      [
        'an object argument without a class',
        '<type name="A\\B\\C"><arguments><argument name="x" xsi:type="object"></argument></arguments></type>',
        ['"object"', '"x"'],
      ],
      [
        'an array argument with text',
        '<type name="A\\B\\C"><arguments><argument name="x" xsi:type="array">oops</argument></arguments></type>',
        ['"array"'],
      ],
      [
        'a non-integer sortOrder',
        '<type name="A\\B\\C"><plugin name="p" type="A\\B\\P" sortOrder="first"/></type>',
        ['sortOrder', '"p"', '"first"'],
      ],
      [
        'a fractional sortOrder',
        '<type name="A\\B\\C"><plugin name="p" type="A\\B\\P" sortOrder="1.5"/></type>',
        ['sortOrder', '"1.5"'],
      ],
      [
        'a bad disabled value',
        '<type name="A\\B\\C"><plugin name="p" type="A\\B\\P" disabled="yes"/></type>',
        ['disabled', '"yes"'],
      ],
      ['a bad shared value', '<type name="A\\B\\C" shared="no"/>', ['shared', '"no"']],
      ['text where none belongs', '<type name="A\\B\\C">stray</type>', ['"stray"']],
    ];
    for (const [what, body, fragments] of cases) {
      it(`should fail on ${what}, naming the file and the offending value`, async () => {
        di('Acme_Base', body);
        await expectConfigError(() => read(), file(), ...fragments);
      });
    }

    it('should fail on malformed XML, naming the file', async () => {
      tree.module('Acme_Base', { files: { 'etc/di.xml': '<config><type name="A\\B\\C"></config>' } });
      await expectConfigError(() => read(), file(), 'malformed XML');
    });

    it('should fail on a wrong root element', async () => {
      tree.module('Acme_Base', { files: { 'etc/di.xml': '<routes/>' } });
      await expectConfigError(() => read(), file(), '<config>');
    });

    it('should fail on a bad area file too, naming it', async () => {
      tree.module('Acme_Base', { files: { 'etc/webapi_rest/di.xml': configXml('<plugin name="x"/>') } });
      expect(() => read('global')).not.to.throw();
      await expectConfigError(() => read('webapi_rest'), tree.path('Acme_Base', 'etc/webapi_rest/di.xml'), '<plugin>');
    });
  });
});
