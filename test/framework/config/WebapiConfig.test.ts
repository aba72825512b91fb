import { expect } from 'chai';
import { needsGlobalCaller, readAclConfig } from '../../../app/framework/config/AclConfig.js';
import { readWebapiConfig } from '../../../app/framework/config/WebapiConfig.js';
import { loadModules } from '../../../app/framework/module/ModuleLoader.js';
import { ModuleTree, configXml, expectConfigError, routesXml } from '../support/moduleTree.js';

const SERVICE = '<service class="Acme\\Base\\Api\\FooInterface" method="get"/>';
const ANONYMOUS = '<resources><resource ref="anonymous"/></resources>';

describe('webapi.xml reader', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create();
  });
  afterEach(() => tree.remove());

  const read = () => readWebapiConfig(loadModules(tree.sources(), tree.configFile));
  const webapi = (module: string, body: string, sequence: string[] = []) =>
    tree.module(module, { sequence, files: { 'etc/webapi.xml': routesXml(body) } });

  describe('when routes are declared', () => {
    it('should read url, method, service, every resource and forced data parameters', () => {
      webapi(
        'Acme_Base',
        `<route url="/V1/foo/:fooId/bar" method="post">
          <service class="Acme\\Base\\Api\\FooInterface" method="addBar"/>
          <resources>
            <resource ref="Acme_Base::foo"/>
            <resource ref="Acme_Base::bar"/>
          </resources>
          <data>
            <parameter name="bar.customerId" force="true">%customer_id%</parameter>
            <parameter name="storeId">%store_id%</parameter>
            <parameter name="note" force="false">none</parameter>
          </data>
        </route>`,
      );
      const [route, ...rest] = read();
      expect(rest).to.have.length(0);
      expect(route).to.deep.include({
        url: '/V1/foo/:fooId/bar',
        method: 'POST',
        serviceClass: 'Acme\\Base\\Api\\FooInterface',
        serviceMethod: 'addBar',
        resources: ['Acme_Base::foo', 'Acme_Base::bar'],
        file: tree.path('Acme_Base', 'etc/webapi.xml'),
        module: 'Acme_Base',
      });
      expect(route!.data).to.deep.equal([
        { name: 'bar.customerId', value: '%customer_id%', force: true },
        { name: 'storeId', value: '%store_id%', force: false },
        { name: 'note', value: 'none', force: false },
      ]);
    });

    it('should read partitionKey, and leave it out where the route does not set it', () => {
      webapi(
        'Acme_Base',
        `<route url="/V1/foo/:fooId" method="PUT" partitionKey="foo.patient_id">${SERVICE}${ANONYMOUS}</route>` +
          `<route url="/V1/foo/:fooId" method="POST">${SERVICE}${ANONYMOUS}</route>`,
      );
      const [keyed, plain] = read();
      expect(keyed!.partitionKey).to.equal('foo.patient_id');
      expect(plain).not.to.have.property('partitionKey');
    });

    it('should let a later module replace a route with the same method and url', () => {
      webapi(
        'Acme_Base',
        `<route url="/V1/foo" method="GET">${SERVICE}${ANONYMOUS}</route><route url="/V1/foo" method="POST">${SERVICE}${ANONYMOUS}</route>`,
      );
      webapi(
        'Acme_Custom',
        `<route url="/V1/foo" method="GET"><service class="Acme\\Custom\\Api\\BetterFooInterface" method="get"/>${ANONYMOUS}</route>`,
        ['Acme_Base'],
      );
      const routes = read();
      expect(routes.map((r) => `${r.method} ${r.url} ${r.serviceClass}`)).to.deep.equal([
        'GET /V1/foo Acme\\Custom\\Api\\BetterFooInterface',
        'POST /V1/foo Acme\\Base\\Api\\FooInterface',
      ]);
    });
  });

  describe('when webapi.xml is invalid', () => {
    const cases: [string, string, string[]][] = [
      [
        'an unknown element',
        `<route url="/V1/foo" method="GET">${SERVICE}${ANONYMOUS}<acl/></route>`,
        ['<acl>', '<route>'],
      ],
      [
        'an unknown attribute',
        `<route url="/V1/foo" method="GET" auth="none">${SERVICE}${ANONYMOUS}</route>`,
        ['"auth"', '<route>'],
      ],
      [
        'an unknown attribute on <parameter>',
        `<route url="/V1/foo" method="GET">${SERVICE}${ANONYMOUS}<data><parameter name="a" forced="true">1</parameter></data></route>`,
        ['"forced"'],
      ],
      [
        'an unknown HTTP method',
        `<route url="/V1/foo" method="FETCH">${SERVICE}${ANONYMOUS}</route>`,
        ['"FETCH"', '/V1/foo'],
      ],
      ['a url without a version', `<route url="/foo" method="GET">${SERVICE}${ANONYMOUS}</route>`, ['"/foo"']],
      [
        'a route without a service',
        `<route url="/V1/foo" method="GET">${ANONYMOUS}</route>`,
        ['GET /V1/foo', '<service>'],
      ],
      [
        'a route without resources',
        `<route url="/V1/foo" method="GET">${SERVICE}</route>`,
        ['GET /V1/foo', '<resources>'],
      ],
      [
        'a partitionKey that names neither a parameter nor a body path',
        `<route url="/V1/foo" method="POST" partitionKey="a b">${SERVICE}${ANONYMOUS}</route>`,
        ['"a b"', 'POST /V1/foo', 'partitionKey'],
      ],
      [
        'a bad force value',
        `<route url="/V1/foo" method="GET">${SERVICE}${ANONYMOUS}<data><parameter name="a" force="always">1</parameter></data></route>`,
        ['"always"'],
      ],
    ];
    for (const [what, body, fragments] of cases) {
      it(`should fail on ${what}, naming the file and the offending value`, async () => {
        webapi('Acme_Base', body);
        await expectConfigError(read, tree.path('Acme_Base', 'etc/webapi.xml'), ...fragments);
      });
    }

    it('should fail on malformed XML, naming the file', async () => {
      tree.module('Acme_Base', { files: { 'etc/webapi.xml': '<routes><route url="/V1/x" method="GET"></routes>' } });
      await expectConfigError(read, tree.path('Acme_Base', 'etc/webapi.xml'), 'malformed XML');
    });
  });
});

describe('acl.xml reader', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create();
  });
  afterEach(() => tree.remove());

  const read = () => readAclConfig(loadModules(tree.sources(), tree.configFile));
  const acl = (module: string, body: string, sequence: string[] = []) =>
    tree.module(module, { sequence, files: { 'etc/acl.xml': configXml(`<acl><resources>${body}</resources></acl>`) } });

  it('should flatten the resource tree with titles, parents and the declaring module', () => {
    acl(
      'Acme_Base',
      `<resource id="Magento_Backend::admin">
        <resource id="Acme_Base::foo" title="Foo" sortOrder="10">
          <resource id="Acme_Base::foo_edit" title="Edit foo"/>
        </resource>
      </resource>`,
    );
    const resources = read();
    expect([...resources.values()]).to.deep.equal([
      { id: 'Magento_Backend::admin', title: 'Magento_Backend::admin', parent: null, module: 'Acme_Base' },
      { id: 'Acme_Base::foo', title: 'Foo', parent: 'Magento_Backend::admin', module: 'Acme_Base' },
      { id: 'Acme_Base::foo_edit', title: 'Edit foo', parent: 'Acme_Base::foo', module: 'Acme_Base' },
    ]);
  });

  it('should merge a resource declared again by a later module, keeping its place in the tree', () => {
    acl('Acme_Base', '<resource id="Magento_Backend::admin"><resource id="Acme_Base::foo" title="Foo"/></resource>');
    acl(
      'Acme_Custom',
      '<resource id="Magento_Backend::admin"><resource id="Acme_Base::foo" title="Foo, renamed"><resource id="Acme_Custom::more" title="More"/></resource></resource>',
      ['Acme_Base'],
    );
    const resources = read();
    expect(resources.get('Acme_Base::foo')).to.deep.equal({
      id: 'Acme_Base::foo',
      title: 'Foo, renamed',
      parent: 'Magento_Backend::admin',
      module: 'Acme_Base',
    });
    expect(resources.get('Acme_Custom::more')!.parent).to.equal('Acme_Base::foo');
  });

  it('should fail on an unknown element, naming the file', async () => {
    acl('Acme_Base', '<resource id="A::b"><role id="x"/></resource>');
    await expectConfigError(read, tree.path('Acme_Base', 'etc/acl.xml'), '<role>');
  });

  it('should fail on an unknown attribute, naming the file', async () => {
    acl('Acme_Base', '<resource id="A::b" label="x"/>');
    await expectConfigError(read, tree.path('Acme_Base', 'etc/acl.xml'), '"label"');
  });

  it('should fail on a resource without an id', async () => {
    acl('Acme_Base', '<resource title="x"/>');
    await expectConfigError(read, tree.path('Acme_Base', 'etc/acl.xml'), '"id"');
  });

  it('should read scope="global" as needing a caller of every store, for the resource and those below it', () => {
    acl(
      'Acme_Base',
      `<resource id="Magento_Backend::admin">
        <resource id="Acme_Base::hooks" scope="global"><resource id="Acme_Base::hooks_list"/></resource>
        <resource id="Acme_Base::foo"/>
      </resource>`,
    );
    // A later module declaring it again without the attribute does not make it store-wide again.
    acl('Acme_Custom', '<resource id="Magento_Backend::admin"><resource id="Acme_Base::hooks"/></resource>', [
      'Acme_Base',
    ]);
    const resources = read();
    expect(resources.get('Acme_Base::hooks')!.scope).to.equal('global');
    expect(needsGlobalCaller(resources, 'Acme_Base::hooks_list')).to.equal(true);
    expect(needsGlobalCaller(resources, 'Acme_Base::foo')).to.equal(false);
    expect(needsGlobalCaller(resources, 'Magento_Backend::admin')).to.equal(false);
  });

  it('should fail on a scope other than "global", naming the file and the resource', async () => {
    acl('Acme_Base', '<resource id="A::b" scope="store"/>');
    await expectConfigError(read, tree.path('Acme_Base', 'etc/acl.xml'), 'A::b', '"store"');
  });
});
