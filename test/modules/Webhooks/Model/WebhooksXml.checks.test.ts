/**
 * Issue 25: a webhooks.xml or io_events.xml setting that would make a matching request fail (a
 * path through the prototype, a regex RE2 does not take, a header node's http refuses, a ttl
 * beyond an hour) stops start-up, naming the file and the element; it used to be read on the
 * first request that needed it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Application } from '../../../../app/bootstrap/Application.js';
import { PROJECT_MODULE_SOURCES, writeModuleConfig } from '../../../support/modules.js';
import { expectConfigError } from '../../../framework/support/moduleTree.js';

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
const ADD_ITEMS = 'plugin.dispensary.recommendation.api.recommendation_item_management.add_items';

function hookXml(attributes: string, children: string): string {
  return `<?xml version="1.0"?>
<config ${XSI}>
  <method name="${ADD_ITEMS}" type="before">
    <hooks><batch name="b">
      <hook name="h" url="http://127.0.0.1:9/hook" secret="env:NOT_SET" ${attributes}>${children}</hook>
    </batch></hooks>
  </method>
</config>
`;
}

function eventXml(children: string): string {
  return `<?xml version="1.0"?>
<config ${XSI}>
  <event name="observer.dispensary_recommendation_items_add_after" destination="http://127.0.0.1:9/events" secret="env:NOT_SET">${children}</event>
</config>
`;
}

describe('Webhooks and events: webhooks.xml and io_events.xml are checked at start-up (issue 25)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'hooks-xml-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Starts the project's modules and Fixture_BadHooks, whose etc/<file> is `content`. */
  async function start(file: string, content: string): Promise<void> {
    const dir = path.join(root, 'Fixture', 'BadHooks', 'etc');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'module.xml'),
      `<?xml version="1.0"?>\n<config ${XSI}><module name="Fixture_BadHooks"><sequence><module name="Dispensary_Webhooks"/><module name="Dispensary_Eventing"/></sequence></module></config>\n`,
    );
    writeFileSync(path.join(dir, file), content);
    const moduleSources = [PROJECT_MODULE_SOURCES, { modulesDir: root, codeDir: root }];
    const app = await Application.create({
      moduleSources,
      moduleConfigFile: writeModuleConfig(undefined, moduleSources),
      databaseUrl: `sqlite://${path.join(root, 'never-opened.sqlite')}`,
    });
    await app.close();
  }

  const cases: [string, string, string, string[]][] = [
    [
      'a field through __proto__',
      'webhooks.xml',
      hookXml('', '<fields><field name="__proto__.x"/></fields>'),
      ['<field> 1 (name "__proto__.x")', 'own properties'],
    ],
    [
      'a field source through constructor.prototype',
      'webhooks.xml',
      hookXml('', '<fields><field name="x" source="constructor.prototype.x"/></fields>'),
      ['<field> 1 (source "constructor.prototype.x")'],
    ],
    [
      'a rule field through __proto__',
      'webhooks.xml',
      hookXml('', '<rules><rule field="recommendation.__proto__" operator="notEmpty"/></rules>'),
      ['<rule> 1 (field "recommendation.__proto__")'],
    ],
    [
      'an invalid regex',
      'webhooks.xml',
      hookXml('', '<rules><rule field="a" operator="regex" value="/[z-a]/"/></rules>'),
      ['<rule> 1 (value "/[z-a]/")', 'RE2'],
    ],
    [
      'a backreference',
      'webhooks.xml',
      hookXml('', '<rules><rule field="a" operator="regex" value="/(a)\\1/"/></rules>'),
      ['<rule> 1', 'no backreferences'],
    ],
    [
      'a header value with a line feed',
      'webhooks.xml',
      hookXml('', '<headers><header name="x-key">a\nb</header></headers>'),
      ['<header> 1 (text', 'CR, LF'],
    ],
    [
      'a header value beyond Latin-1',
      'webhooks.xml',
      hookXml('', '<headers><header name="x-key">10 €</header></headers>'),
      ['<header> 1', 'Latin-1'],
    ],
    [
      'a ttl beyond an hour',
      'webhooks.xml',
      hookXml('ttl="1000000000000"', ''),
      ['ttl must be less than or equal to 3600'],
    ],
    [
      "a rule in Adobe's element form through __proto__",
      'webhooks.xml',
      hookXml('', '<rules><rule><field>recommendation.__proto__.x</field><operator>notEmpty</operator></rule></rules>'),
      ['<rule> 1 (field "recommendation.__proto__.x")', 'own properties'],
    ],
    [
      "Adobe's items[] field form through constructor",
      'webhooks.xml',
      hookXml('', '<fields><field name="items[].sku" source="recommendation.constructor[].sku"/></fields>'),
      ['<field> 1 (source "recommendation.constructor[].sku")', 'own properties'],
    ],
    [
      "Adobe's request id header (the service sets it)",
      'webhooks.xml',
      hookXml('', '<headers><header name="x-adobe-commerce-request-id">x</header></headers>'),
      ['<header> 1 (name "x-adobe-commerce-request-id")'],
    ],
    [
      'an event field through __proto__',
      'io_events.xml',
      eventXml('<fields><field name="__proto__.x"/></fields>'),
      ['<field> 1 (name "__proto__.x")'],
    ],
    [
      'an event rule with an invalid regex',
      'io_events.xml',
      eventXml('<rules><rule field="a" operator="regex" value="(?&lt;"/></rules>'),
      ['<rule> 1', 'RE2'],
    ],
    [
      "an event rule in Adobe's element form with a lookahead",
      'io_events.xml',
      eventXml('<rules><rule><field>added</field><operator>regex</operator><value>/a(?=b)/</value></rule></rules>'),
      ['<rule> 1 (value "/a(?=b)/")', 'lookaround'],
    ],
  ];

  for (const [what, file, content, fragments] of cases) {
    it(`${file}: ${what} should stop start-up naming the file and element`, async () => {
      await expectConfigError(() => start(file, content), path.join('Fixture', 'BadHooks', 'etc', file), ...fragments);
    });
  }
});
