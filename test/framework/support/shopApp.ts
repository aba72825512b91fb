/**
 * The real application with the fixture modules of test/fixtures/webapi (Fixture_Shop: a contract,
 * its class, routes, ACL, a plugin and a migration; Fixture_Auth: an authorization hook) next to
 * the Dispensary_Store module, which resolves store scopes. The other project modules are
 * disabled, so these tests exercise the runtime and nothing else.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { ApplicationOptions } from '../../../app/bootstrap/Application.js';
import { DIST_ROOT, PROJECT_ROOT } from '../../../app/bootstrap/paths.js';
import { discoverModules, type ModuleSources } from '../../../app/framework/module/ModuleLoader.js';
import { TestApp } from '../../support/testApp.js';
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

const KEPT = new Set(['Dispensary_Store', 'Fixture_Shop', 'Fixture_Auth']);

export async function startShopApp(options: ShopAppOptions = {}): Promise<ShopApp> {
  const sources: ModuleSources[] = [
    { modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') },
    { modulesDir: fixtureSourceDir('webapi'), codeDir: fixtureCodeDir('webapi') },
  ];
  const enabled: Record<string, boolean> = {};
  for (const module of discoverModules(sources)) enabled[module.name] = KEPT.has(module.name);
  if (options.auth === false) enabled.Fixture_Auth = false;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'shop-app-'));
  const configFile = path.join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ modules: enabled }));

  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const appOptions: ApplicationOptions = {
    moduleSources: sources,
    moduleConfigFile: configFile,
    // Off unless asked for; `developerMode: undefined` leaves it to MAGE_MODE.
    developerMode: 'developerMode' in options ? options.developerMode : false,
    bodyLimit: options.bodyLimit,
    logger: pino({ level: 'info' }, sink),
  };
  try {
    const t = await TestApp.start(appOptions);
    return {
      t,
      logs,
      stop: async () => {
        await t.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
