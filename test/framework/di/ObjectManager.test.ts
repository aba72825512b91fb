import { expect } from 'chai';
import { GreeterInterface } from '../../fixtures/runtime/modules/Fixture/Container/Api/GreeterInterface.js';
import { Configurable } from '../../fixtures/runtime/modules/Fixture/Container/Model/Configurable.js';
import { Consumer } from '../../fixtures/runtime/modules/Fixture/Container/Model/Consumer.js';
import { Greeter } from '../../fixtures/runtime/modules/Fixture/Container/Model/Greeter.js';
import { LoudGreeter } from '../../fixtures/runtime/modules/Fixture/Container/Model/LoudGreeter.js';
import { NeedsArgument } from '../../fixtures/runtime/modules/Fixture/Container/Model/NeedsArgument.js';
import { ModuleTree, configXml, expectConfigError } from '../support/moduleTree.js';

const NS = 'Fixture\\Container';
const GREETER_API = `${NS}\\Api\\GreeterInterface`;
const GREETER = `${NS}\\Model\\Greeter`;
const LOUD = `${NS}\\Model\\LoudGreeter`;
const CONFIGURABLE = `${NS}\\Model\\Configurable`;
const CONSUMER = `${NS}\\Model\\Consumer`;
const NEEDS = `${NS}\\Model\\NeedsArgument`;

const CONFIGURABLE_ARGS = `
  <type name="${CONFIGURABLE}">
    <arguments>
      <argument name="greeting" xsi:type="string">hello</argument>
      <argument name="count" xsi:type="number">3</argument>
      <argument name="enabled" xsi:type="boolean">true</argument>
      <argument name="nothing" xsi:type="null"/>
      <argument name="options" xsi:type="array">
        <item name="colour" xsi:type="string">green</item>
        <item name="sizes" xsi:type="array">
          <item name="small" xsi:type="number">1</item>
        </item>
        <item name="greeter" xsi:type="object">${GREETER_API}</item>
      </argument>
      <argument name="helper" xsi:type="object">${GREETER}</argument>
    </arguments>
  </type>`;

describe('ObjectManager', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
    Greeter.created = 0;
  });
  afterEach(() => tree.dispose());

  const boot = async (body: string) => {
    tree.module('Fixture_Container', { files: { 'etc/di.xml': configXml(body) } });
    return tree.boot('global');
  };

  describe('when preferences form a chain', () => {
    it('should follow it to the last class', async () => {
      const om = (
        await boot(`<preference for="${GREETER_API}" type="${GREETER}"/><preference for="${GREETER}" type="${LOUD}"/>`)
      ).objectManager;
      const greeter = om.get<GreeterInterface>(GREETER_API);
      expect(greeter).to.be.instanceOf(LoudGreeter);
      expect(greeter.greet('ann')).to.equal('HELLO, ANN');
      expect(om.concreteName(GREETER_API)).to.equal(LOUD);
      expect(om.get(GREETER)).to.equal(greeter);
    });

    it('should look a contract up by its value as well as its name', async () => {
      const om = (await boot(`<preference for="${GREETER_API}" type="${GREETER}"/>`)).objectManager;
      expect(om.get(GreeterInterface)).to.equal(om.get(GREETER_API));
    });

    it('should fail on a cycle, naming the types in it', async () => {
      tree.module('Fixture_Container', {
        files: {
          'etc/di.xml': configXml(
            `<preference for="${GREETER_API}" type="${GREETER}"/><preference for="${GREETER}" type="${LOUD}"/><preference for="${LOUD}" type="${GREETER}"/>`,
          ),
        },
      });
      await expectConfigError(() => tree.boot('global'), 'Preference cycle', GREETER, LOUD);
    });
  });

  describe('when a type is shared or not', () => {
    it('should share one instance by default', async () => {
      const om = (await boot(`<preference for="${GREETER_API}" type="${GREETER}"/><type name="${CONSUMER}"/>`))
        .objectManager;
      expect(om.get(GREETER_API)).to.equal(om.get(GREETER_API));
      expect(om.get<Consumer>(CONSUMER).greeter).to.equal(om.get(GREETER_API));
      expect(Greeter.created).to.equal(1);
    });

    it('should create a new instance on every request with shared="false"', async () => {
      const om = (
        await boot(
          `<preference for="${GREETER_API}" type="${GREETER}"/><type name="${GREETER}" shared="false"/><type name="${CONSUMER}" shared="false"/>`,
        )
      ).objectManager;
      const first = om.get(GREETER_API);
      expect(om.get(GREETER_API)).not.to.equal(first);
      const consumers = [om.get<Consumer>(CONSUMER), om.get<Consumer>(CONSUMER)];
      expect(consumers[0]).not.to.equal(consumers[1]);
      expect(consumers[0]!.greeter).not.to.equal(consumers[1]!.greeter);
      expect(Greeter.created).to.equal(4);
    });
  });

  describe('when di.xml gives constructor arguments', () => {
    it('should pass each by parameter name, with objects resolved and defaults kept', async () => {
      const om = (await boot(`<preference for="${GREETER_API}" type="${LOUD}"/>${CONFIGURABLE_ARGS}`)).objectManager;
      const configurable = om.get<Configurable>(CONFIGURABLE);
      expect(configurable).to.be.instanceOf(Configurable);
      expect(configurable.greeting).to.equal('hello');
      expect(configurable.count).to.equal(3);
      expect(configurable.enabled).to.equal(true);
      expect(configurable.nothing).to.equal(null);
      expect(configurable.options.colour).to.equal('green');
      expect(configurable.options.sizes).to.deep.equal({ small: 1 });
      expect(configurable.options.greeter).to.be.instanceOf(LoudGreeter);
      expect(configurable.options.greeter).to.equal(om.get(GREETER_API));
      expect(configurable.helper).to.be.instanceOf(Greeter).and.not.instanceOf(LoudGreeter);
      expect(configurable.fallback).to.equal('default');
    });

    it('should merge arguments of later modules over earlier ones', async () => {
      tree.module('Fixture_Later', {
        sequence: ['Fixture_Container'],
        files: {
          'etc/di.xml': configXml(
            `<type name="${CONFIGURABLE}"><arguments><argument name="greeting" xsi:type="string">hi</argument><argument name="options" xsi:type="array"><item name="extra" xsi:type="boolean">false</item></argument></arguments></type>`,
          ),
        },
      });
      const configurable = (
        await boot(`<preference for="${GREETER_API}" type="${GREETER}"/>${CONFIGURABLE_ARGS}`)
      ).get<Configurable>(CONFIGURABLE);
      expect(configurable.greeting).to.equal('hi');
      expect(Object.keys(configurable.options)).to.deep.equal(['colour', 'sizes', 'greeter', 'extra']);
    });

    it('should fail at start-up when a parameter has neither @inject nor an argument, naming the class and the parameter', async () => {
      tree.module('Fixture_Container', { files: { 'etc/di.xml': configXml(`<type name="${NEEDS}"/>`) } });
      await expectConfigError(() => tree.boot('global'), NEEDS, '"value"');
    });

    it('should build that class once the argument is given', async () => {
      const om = (
        await boot(
          `<type name="${NEEDS}"><arguments><argument name="value" xsi:type="string">given</argument></arguments></type>`,
        )
      ).objectManager;
      expect(om.get<NeedsArgument>(NEEDS).value).to.equal('given');
    });

    it('should fail at start-up on an argument that names no constructor parameter', async () => {
      tree.module('Fixture_Container', {
        files: {
          'etc/di.xml': configXml(
            `<type name="${NEEDS}"><arguments><argument name="value" xsi:type="string">x</argument><argument name="valeu" xsi:type="string">x</argument></arguments></type>`,
          ),
        },
      });
      await expectConfigError(
        () => tree.boot('global'),
        tree.path('Fixture_Container', 'etc/di.xml'),
        '"valeu"',
        NEEDS,
      );
    });
  });

  describe('when a virtualType varies a class', () => {
    const VIRTUAL = `
      <virtualType name="${NS}\\Model\\FrenchConfigurable" type="${CONFIGURABLE}">
        <arguments>
          <argument name="greeting" xsi:type="string">bonjour</argument>
        </arguments>
      </virtualType>
      <virtualType name="quietConfigurable" type="${CONFIGURABLE}" shared="false">
        <arguments>
          <argument name="enabled" xsi:type="boolean">false</argument>
          <argument name="helper" xsi:type="object">${NS}\\Model\\FrenchConfigurable</argument>
        </arguments>
      </virtualType>`;

    it("should build the real class with its own arguments over the real type's", async () => {
      const om = (await boot(`<preference for="${GREETER_API}" type="${GREETER}"/>${CONFIGURABLE_ARGS}${VIRTUAL}`))
        .objectManager;
      const french = om.get<Configurable>(`${NS}\\Model\\FrenchConfigurable`);
      expect(french).to.be.instanceOf(Configurable);
      expect(french.greeting).to.equal('bonjour');
      expect(french.count).to.equal(3);
      expect(om.get<Configurable>(CONFIGURABLE).greeting).to.equal('hello');
      expect(om.get(`${NS}\\Model\\FrenchConfigurable`)).to.equal(french);
    });

    it('should serve a virtualType with a free-form name as an argument, honouring its shared', async () => {
      const om = (
        await boot(`<preference for="${GREETER_API}" type="${GREETER}"/>${CONFIGURABLE_ARGS}${VIRTUAL}
        <type name="${NS}\\Model\\NeedsArgument"><arguments><argument name="value" xsi:type="object">quietConfigurable</argument></arguments></type>`)
      ).objectManager;
      const quiet = om.get<Configurable>('quietConfigurable');
      expect(quiet.enabled).to.equal(false);
      expect(quiet.greeting).to.equal('hello');
      expect((quiet.helper as Configurable).greeting).to.equal('bonjour');
      expect(om.get('quietConfigurable')).not.to.equal(quiet);
      expect(om.get<{ value: Configurable }>(NEEDS).value).to.be.instanceOf(Configurable);
    });
    it('should build a virtualType of a virtualType with the arguments of the whole chain', async () => {
      const om = (
        await boot(`<preference for="${GREETER_API}" type="${GREETER}"/>${CONFIGURABLE_ARGS}${VIRTUAL}
        <virtualType name="countedFrench" type="${NS}\\Model\\FrenchConfigurable"><arguments><argument name="count" xsi:type="number">9</argument></arguments></virtualType>`)
      ).objectManager;
      const counted = om.get<Configurable>('countedFrench');
      expect([counted.greeting, counted.count, counted.enabled]).to.deep.equal(['bonjour', 9, true]);
    });

    it('should fail on a virtualType cycle, naming the types', async () => {
      tree.module('Fixture_Container', {
        files: {
          'etc/di.xml': configXml('<virtualType name="loopA" type="loopB"/><virtualType name="loopB" type="loopA"/>'),
        },
      });
      await expectConfigError(() => tree.boot('global'), 'loopA', 'loopB');
    });
  });

  describe('when a class asks for a contract with @inject', () => {
    it('should inject the class the preference names', async () => {
      const consumer = (
        await boot(`<preference for="${GREETER_API}" type="${LOUD}"/><type name="${CONSUMER}"/>`)
      ).get<Consumer>(CONSUMER);
      expect(consumer.greeter).to.be.instanceOf(LoudGreeter);
      expect(consumer.welcome('bo')).to.equal('HELLO, BO');
    });

    it('should fail when no class serves the contract, naming it', async () => {
      const om = (await boot(`<type name="${CONSUMER}"/>`)).objectManager;
      expect(() => om.get(CONSUMER)).to.throw(GREETER_API);
      await expectConfigError(() => om.get(GREETER_API), GREETER_API, '<preference');
    });
  });
});

describe('ObjectManager with @inject of class names', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('runtime');
  });
  afterEach(() => tree.dispose());

  it('should build a class that no di.xml names when another class injects it by name', async () => {
    tree.module('Fixture_Container', {
      files: { 'etc/di.xml': configXml(`<type name="${NS}\\Model\\UsesGreeterClass"/>`) },
    });
    const app = await tree.boot('global');
    const user = app.get<{ greeter: Greeter }>(`${NS}\\Model\\UsesGreeterClass`);
    expect(user.greeter).to.be.instanceOf(LoudGreeter);
  });

  it('should fail at start-up when an injected class name does not resolve, naming it and the class that asks', async () => {
    tree.module('Fixture_Container', {
      files: { 'etc/di.xml': configXml(`<type name="${NS}\\Model\\UsesMissingClass"/>`) },
    });
    await expectConfigError(() => tree.boot('global'), `${NS}\\Model\\NoSuchClass`, `${NS}\\Model\\UsesMissingClass`);
  });
});
