/**
 * The real application with the fixture modules of test/fixtures/webapi (Fixture_Shop: a contract,
 * its class, routes, ACL, a plugin and a migration; Fixture_Auth: an authorization hook) next to
 * the Dispensary_Store module, which resolves store scopes. The other project modules are
 * disabled, so these tests exercise the runtime and nothing else.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import type { ModuleSources } from '../../../app/framework/module/ModuleLoader.js';
import { PROJECT_MODULE_SOURCES } from '../../support/modules.js';
import { TestApp, type TestAppOptions } from '../../support/testApp.js';
import { fixtureCodeDir, fixtureSourceDir } from '../../framework/support/moduleTree.js';

export interface ShopAppOptions {
  /** Enable Fixture_Auth (the authorization hook); default true. */
  readonly auth?: boolean;
  /** Default false; pass `undefined` explicitly to let MAGE_MODE decide. */
  readonly developerMode?: boolean | undefined;
  readonly bodyLimit?: number;
}

export interface ShopApp {
  readonly t: TestApp;
  /** Log lines the application wrote (parsed pino JSON). */
  readonly logs: Record<string, unknown>[];
  stop(): Promise<void>;
}

export async function startShopApp(options: ShopAppOptions = {}): Promise<ShopApp> {
  const sources: ModuleSources[] = [
    PROJECT_MODULE_SOURCES,
    { modulesDir: fixtureSourceDir('webapi'), codeDir: fixtureCodeDir('webapi') },
  ];

  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const appOptions: TestAppOptions = {
    moduleSources: sources,
    modules: ['Dispensary_Store', 'Fixture_Shop', ...(options.auth === false ? [] : ['Fixture_Auth'])],
    // Off unless asked for; `developerMode: undefined` leaves it to MAGE_MODE.
    developerMode: 'developerMode' in options ? options.developerMode : false,
    bodyLimit: options.bodyLimit,
    logger: pino({ level: 'info' }, sink),
  };
  const t = await TestApp.start(appOptions);
  return { t, logs, stop: () => t.stop() };
}
