/**
 * Helpers for the ports of Magento 2.4's api-functional tests (dev/tests/api-functional/testsuite/
 * Magento/...): WebapiAbstract::_webApiCall for REST, as a Bearer-token HTTP call through the real
 * app. Each ported case names its Magento test method; each file says which Magento file it ports
 * and which of its cases are skipped, and why (listed again in docs/magento-api-functional.md).
 */
import path from 'node:path';
import { DIST_ROOT, PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { PROJECT_MODULE_SOURCES } from '../support/modules.js';
import { TestApp, type TestAppOptions } from '../support/testApp.js';

export type Method = 'get' | 'post' | 'put' | 'delete';

/** `_webApiCall($serviceInfo, $requestData, null, $storeCode)`: the body for POST/PUT, none for GET/DELETE. */
export function webApiCall(
  t: TestApp,
  token: string,
  method: Method,
  resourcePath: string,
  requestData?: object,
  storeCode?: string,
) {
  const path = storeCode ? `/rest/${storeCode}${resourcePath}` : `/rest${resourcePath}`;
  const req = t.request()[method](path).set('Authorization', `Bearer ${token}`).set('Accept', 'application/json');
  return requestData !== undefined && (method === 'post' || method === 'put') ? req.send(requestData) : req;
}

/** A test file's application and the all-stores token its calls carry (Magento's tests call as an admin). */
export class MagentoApp {
  t!: TestApp;
  token!: string;

  /** `_webApiCall` with this application and token. */
  call(method: Method, resourcePath: string, requestData?: object, storeCode?: string) {
    return webApiCall(this.t, this.token, method, resourcePath, requestData, storeCode);
  }
}

/**
 * The set-up every ported test file shares: a fresh application (its own database) and a token,
 * made in a `before` hook of the calling `describe` and stopped in its `after`. Data a file needs
 * goes in a `before` of its own, registered after this call, so it runs after it.
 */
export function magentoApp(options: TestAppOptions = {}): MagentoApp {
  const app = new MagentoApp();
  before(async () => {
    app.t = await TestApp.start(options);
    app.token = await app.t.integrationToken({ allStores: true });
  });
  after(async () => app.t?.stop());
  return app;
}

/** PHP's http_build_query for the nested arrays Magento's tests put in a query string. */
export function httpBuildQuery(data: Record<string, unknown>, prefix?: string): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (value !== null && typeof value === 'object') parts.push(httpBuildQuery(value as Record<string, unknown>, name));
    else parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.filter((p) => p !== '').join('&');
}

/**
 * Magento's own Web API test modules (dev/tests/api-functional/_files/Magento/TestModule1, 2, 3, 5
 * and TestModuleMSC), ported into test/fixtures/magento/modules: their etc/*.xml as Magento ships
 * them (the lines changed are listed in docs/magento-api-functional.md), their PHP services and
 * data objects in TypeScript. On beside the project's modules, for the ported Webapi tests only.
 */
export const MAGENTO_TEST_MODULE_SOURCES = {
  modulesDir: path.join(PROJECT_ROOT, 'test', 'fixtures', 'magento', 'modules'),
  codeDir: path.join(DIST_ROOT, 'test', 'fixtures', 'magento', 'modules'),
};

/** magentoApp() with Magento's test modules on. */
export function magentoTestModulesApp(options: TestAppOptions = {}): MagentoApp {
  return magentoApp({ ...options, moduleSources: [PROJECT_MODULE_SOURCES, MAGENTO_TEST_MODULE_SOURCES] });
}
