/**
 * Model/WebhooksXml.ts and Eventing's Model/IoEventsXml.ts (through the start-up readers): Adobe's
 * own forms of webhooks.xml and io_events.xml (issue 26, point 2). Each example of Adobe's XML
 * references, ported file by file into fixtures/adobe-examples/ (each file names the page it comes from
 * and what was added), is read at start-up as Adobe documents it, or, where this project does not do
 * what the example asks, stops start-up (and every CLI command) naming the file and the element.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Application, type ApplicationOptions } from '../../../../app/bootstrap/Application.js';
import { PROJECT_ROOT } from '../../../../app/bootstrap/config/paths.js';
import type { Subscription } from '../../../../modules/Dispensary/Eventing/Model/Subscription.js';
import type { Hook } from '../../../../modules/Dispensary/Webhooks/Model/Hook.js';
import {
  rulesHold,
  selectFields,
} from '../../../../modules/Dispensary/OutOfProcessExtensibility/Api/payloadFilters.js';
import { ModuleTree, configXml, expectConfigError } from '../../../framework/support/moduleTree.js';
import { PROJECT_MODULE_SOURCES } from '../../../support/modules.js';

const EXAMPLES = path.join(PROJECT_ROOT, 'test', 'modules', 'Webhooks', 'fixtures', 'adobe-examples');
const example = (name: string) => readFileSync(path.join(EXAMPLES, name), 'utf8');
const SEQUENCE = ['Dispensary_Webhooks', 'Dispensary_Eventing'];

describe("Adobe's webhooks.xml and io_events.xml, example by example", () => {
  let tree: ModuleTree;
  const apps: Application[] = [];

  beforeEach(() => {
    tree = ModuleTree.create('runtime');
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    tree.remove();
  });

  /** The project's modules and the tree's, as the server (webapi_rest) or the CLI (global) starts them. */
  const options = (area: 'webapi_rest' | 'global' = 'webapi_rest'): ApplicationOptions => ({
    area,
    moduleSources: [PROJECT_MODULE_SOURCES, ...tree.sources()],
    moduleConfigFile: tree.configFile,
    databaseUrl: 'sqlite::memory:',
  });
  /** Adds Fixture_<name> with these etc/ files. */
  const withModule = (name: string, files: Record<string, string>) =>
    tree.module(`Fixture_${name}`, { sequence: SEQUENCE, files });
  const start = async () => {
    const app = await Application.create(options());
    apps.push(app);
    return app;
  };
  const hooksOf = async () =>
    (await start()).get<{ read(): Hook[] }>('Dispensary\\Webhooks\\Model\\WebhooksXmlConfig').read();
  const eventsOf = async () =>
    (await start()).get<{ read(): Subscription[] }>('Dispensary\\Eventing\\Model\\IoEventsXmlConfig').read();
  /** Start-up and a CLI command both stop, naming the file and the element. */
  const expectStartupError = async (file: string, ...fragments: string[]) => {
    await expectConfigError(() => start(), file, ...fragments);
    // bin/cli.ts prints the error and exits 1.
    await expectConfigError(
      () => tree.cli(['webhooks:list'], { moduleSources: options().moduleSources }),
      file,
      ...fragments,
    );
  };

  describe('webhooks.xml', () => {
    it('"Configure hook contents", validate_stock: fields renamed from their source, required', async () => {
      withModule('Stock', { 'etc/webhooks.xml': example('hooks-validate-stock.webhooks.xml') });
      const [hook] = await hooksOf();
      expect(hook).to.deep.include({
        webhook_method: 'observer.sales_quote_add_item',
        hook_name: 'validate_stock',
        required: true,
        timeout: 2000,
        soft_timeout: 200,
        fallback_error_message: "Can't add the product to the cart right now",
      });
      // Adobe's sample payload of observer.sales_quote_add_item, and what it says is sent.
      const payload = { eventName: 'x', data: { quote_item: { sku: 'S', qty: 2, name: 'N', price: 9.5, item_id: 1 } } };
      expect(selectFields(hook!.fields, payload)).to.deep.equal({
        product: { name: 'N', sku: 'S', price: 9.5, quantity: 2 },
      });
    });

    it('"Configure hook contents", result[].carrier_code: sends the object Adobe prints', async () => {
      withModule('Shipping', { 'etc/webhooks.xml': example('hooks-array-fields.webhooks.xml') });
      const [hook] = await hooksOf();
      const estimate = (carrier: string, method: string, amount: number) => ({
        carrier_code: carrier,
        method_code: method,
        carrier_title: 'T',
        method_title: 'M',
        amount,
        base_amount: amount,
        available: true,
      });
      const payload = {
        subject: [],
        result: [estimate('tablerate', 'bestway', 15), estimate('flatrate', 'flatrate', 20)],
        cartId: '21',
        address: { street: '123 Test Road', postcode: '90000', city: 'Test City' },
      };
      expect(selectFields(hook!.fields, payload)).to.deep.equal({
        postcode: '90000',
        result: [
          { carrier_code: 'tablerate', method_code: 'bestway', base_amount: 15 },
          { carrier_code: 'flatrate', method_code: 'flatrate', base_amount: 20 },
        ],
      });
    });

    it('"Define conditional webhooks", Calculate tax: an {env:APP_URL} URL, required="false", attribute rules', async () => {
      withModule('Tax', { 'etc/webhooks.xml': example('conditional-calculate-tax.webhooks.xml') });
      const [hook] = await hooksOf();
      expect(hook).to.deep.include({ url: '{env:APP_URL}/calculate-taxes', required: false, priority: 300 });
      const address = (country: string, postcode: string) => ({
        quoteDetails: { shipping_address: { country_id: country }, billing_address: { postcode } },
      });
      expect(rulesHold(hook!.rules, address('US', '12345'))).to.equal(true);
      expect(rulesHold(hook!.rules, address('US', '92345'))).to.equal(false);
      expect(rulesHold(hook!.rules, address('FR', '12345'))).to.equal(false);
    });

    it('"Define conditional webhooks", Generate short descriptions: its operation="isEmpty" stops start-up', async () => {
      withModule('Describe', { 'etc/webhooks.xml': example('conditional-generate-description.webhooks.xml') });
      await expectStartupError(
        tree.path('Fixture_Describe', 'etc/webhooks.xml'),
        'unknown attribute "operation" on <rule>',
      );
    });

    it('"Configure hook contents", context fields: a context_* source stops start-up', async () => {
      withModule('Context', { 'etc/webhooks.xml': example('hooks-context-fields.webhooks.xml') });
      await expectStartupError(
        tree.path('Fixture_Context', 'etc/webhooks.xml'),
        '<field> "context_customer_session.get_customer.get_email"',
      );
    });

    it("should merge a later module's declaration of a hook: attributes changed, fields added, one removed", async () => {
      withModule('Stock', { 'etc/webhooks.xml': example('hooks-validate-stock.webhooks.xml') });
      tree.module('Fixture_StockOverride', {
        sequence: ['Fixture_Stock'],
        files: {
          'etc/webhooks.xml': configXml(`
  <method name="observer.sales_quote_add_item" type="before"><hooks><batch name="product_validation">
    <hook name="validate_stock" timeout="3000">
      <fields><field name="product.price" remove="true"/><field name="product.id" source="data.quote_item.item_id"/></fields>
      <rules><rule><field>data.quote_item.qty</field><operator>greaterThan</operator><value>0</value></rule></rules>
    </hook>
  </batch></hooks></method>`),
        },
      });
      const [hook] = await hooksOf();
      expect(hook).to.deep.include({ timeout: 3000, soft_timeout: 200, required: true });
      expect(hook!.fields.map((field) => field.name)).to.deep.equal([
        'product.name',
        'product.sku',
        'product.quantity',
        'product.id',
      ]);
      expect(hook!.rules).to.deep.equal([{ field: 'data.quote_item.qty', operator: 'greaterThan', value: '0' }]);
    });

    it('should stop start-up, naming file and element, for a rule without a field, an unknown operator, or no url', async () => {
      const bad = (rule: string, hookAttrs = 'url="https://example.com/x"') =>
        configXml(`
  <method name="observer.sales_quote_add_item" type="before"><hooks><batch name="b">
    <hook name="h" ${hookAttrs} secret="env:X"><rules>${rule}</rules></hook>
  </batch></hooks></method>`);
      const file = tree.path('Fixture_Bad', 'etc/webhooks.xml');
      withModule('Bad', { 'etc/webhooks.xml': bad('<rule><operator>equal</operator><value>1</value></rule>') });
      await expectStartupError(file, '<rule> needs a <field> element');
      withModule('Bad', { 'etc/webhooks.xml': bad('<rule field="a" operator="sameAs" value="1"/>') });
      await expectStartupError(file, '<rule> of "a": unknown operator "sameAs"');
      withModule('Bad', { 'etc/webhooks.xml': bad('<rule field="a" operator="equal" value="1"/>', '') });
      await expectStartupError(file, 'hook "h" of observer.sales_quote_add_item', 'url is required');
      withModule('Bad', {
        'etc/webhooks.xml': bad('<rule field="a" operator="equal" value="1"/>', 'url="https://e.x/" required="yes"'),
      });
      await expectStartupError(
        file,
        'hook "h" of observer.sales_quote_add_item: required must be true or false, not "yes"',
      );
      withModule('Bad', { 'etc/webhooks.xml': configXml('<method name="observer.a" type="around"><hooks/></method>') });
      await expectStartupError(file, '<method name="observer.a">: type must be before or after');
      withModule('Bad', { 'etc/webhooks.xml': configXml('<method name="observer.a" type="before"/>') });
      await expectStartupError(file, '<method name="observer.a"> needs a <hooks> element');
    });
  });

  describe('io_events.xml', () => {
    it('"Create conditional events": the element form of rules starts, and the rules hold as Adobe says', async () => {
      withModule('Low', { 'etc/io_events.xml': example('conditional-events-supported.io_events.xml') });
      const [event] = await eventsOf();
      expect(event).to.deep.include({
        name: 'observer.catalog_product_save_after_low_stock_event',
        parent: 'observer.catalog_product_save_after',
        fields: [{ name: 'qty' }, { name: 'category_id' }, { name: 'name' }],
      });
      expect(event!.rules).to.deep.equal([
        { field: 'qty', operator: 'lessThan', value: '20' },
        { field: 'category_id', operator: 'in', value: '3,4,5' },
        { field: 'name', operator: 'regex', value: '/^TV .*/i' },
        { field: 'category.store_id', operator: 'in', value: '1,2' },
      ]);
      const product = { qty: 5, category_id: 4, name: 'tv Large', category: { store_id: 2 } };
      expect(rulesHold(event!.rules, product)).to.equal(true);
      expect(rulesHold(event!.rules, { ...product, qty: 25 })).to.equal(false);
    });

    it('"Create conditional events", exactly as printed: its context_* rule stops start-up naming the file', async () => {
      withModule('Low', { 'etc/io_events.xml': example('conditional-events.io_events.xml') });
      await expectStartupError(
        tree.path('Fixture_Low', 'etc/io_events.xml'),
        '<rule> "context_application_state.get_area_code": context values (context_*) are not supported',
      );
    });

    it('"Create conditional events", onChange: refused at start-up, naming the file and rule', async () => {
      withModule('Change', { 'etc/io_events.xml': example('conditional-events-orig-data.io_events.xml') });
      await expectStartupError(
        tree.path('Fixture_Change', 'etc/io_events.xml'),
        '<rule> of "product.quantity_and_stock_status.qty": unknown operator "onChange"',
      );
    });

    it('"Commerce module development", Register events: its plugin.* events are refused at start-up', async () => {
      withModule('Register', { 'etc/io_events.xml': example('module-development-register.io_events.xml') });
      await expectStartupError(
        tree.path('Fixture_Register', 'etc/io_events.xml'),
        'event "plugin.magento.sales.api.invoice_item_repository.save"',
        'only observer.<event> events',
      );
    });

    it('"Commerce module development", items[].sku: sends the object Adobe prints', async () => {
      withModule('Invoice', { 'etc/io_events.xml': example('module-development-nested.io_events.xml') });
      const [event] = await eventsOf();
      const invoice = {
        order_id: '8',
        grand_total: 10,
        items: [
          { sku: 'simple-product-2', qty: '3.000000', price: 1 },
          { sku: 'simple-product-1', qty: '5.000000', price: 2 },
        ],
      };
      expect(selectFields(event!.fields, invoice)).to.deep.equal({
        order_id: '8',
        items: [
          { sku: 'simple-product-2', qty: '3.000000' },
          { sku: 'simple-product-1', qty: '5.000000' },
        ],
      });
    });

    it('"Commerce module development", merging from different modules: the fields of both are sent', async () => {
      withModule('Module1', { 'etc/io_events.xml': example('module-development-merge-module1.io_events.xml') });
      tree.module('Fixture_Module2', {
        sequence: ['Fixture_Module1'],
        files: { 'etc/io_events.xml': example('module-development-merge-module2.io_events.xml') },
      });
      const [event] = await eventsOf();
      // Adobe's "resulting configuration".
      expect(event!.fields).to.deep.equal([
        { name: 'entity_id' },
        { name: 'sku' },
        { name: 'quantity_and_stock_status.qty' },
        { name: 'stock_data.min_qty' },
      ]);
      expect(event!.source).to.equal(tree.path('Fixture_Module2', 'etc/io_events.xml'));
    });

    it('should stop start-up, and events:list, naming file and element, for a broken rule of the element form', async () => {
      withModule('Broken', {
        'etc/io_events.xml': configXml(`
  <event name="observer.dispensary_recommendation_items_add_after" destination="https://example.com/e" secret="env:X">
    <rules><rule><field>added</field><value>1</value></rule></rules>
  </event>`),
      });
      const file = tree.path('Fixture_Broken', 'etc/io_events.xml');
      await expectConfigError(() => start(), file, '<rule> of "added" needs an <operator> element');
      await expectConfigError(
        () => tree.cli(['events:list'], { moduleSources: options().moduleSources }),
        file,
        '<rule> of "added" needs an <operator> element',
      );
    });
  });
});
