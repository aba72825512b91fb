/**
 * The real application, on a database of its own, for HTTP tests:
 *
 *   const t = await TestApp.start();
 *   const token = await t.integrationToken({ allStores: true });
 *   await t.request().get('/rest/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
 *   await t.stop();
 *
 * `t.request()` sends the request through the whole application in-process, without a socket
 * (test/support/inject.ts). A test of the HTTP server itself (keep-alive, a client that leaves,
 * limits at the socket) uses supertest on a real one: `request(t.http)`.
 *
 * It runs with the project's modules; `modules` chooses others (test/support/modules.ts):
 * `TestApp.start({ modules: { Acme_RecommendationNotes: true } })` switches one more on.
 */
import type { Express } from 'express';
import { Application, type ApplicationOptions } from '../../app/bootstrap/Application.js';
import { runCli } from '../../app/cli/Cli.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { injectAgent, type InjectAgent, type InjectAgentOptions } from './inject.js';
import { preferOwnCopies, writeModuleConfig, type ModuleSelection } from './modules.js';
import { startFromTemplate } from './sqliteTemplate.js';

export interface TestAppOptions extends ApplicationOptions {
  /** The modules to run with, over the project's own (see test/support/modules.ts). */
  readonly modules?: ModuleSelection;
}

export interface TokenOptions {
  name?: string;
  /** Store code; default `default` unless allStores. */
  store?: string;
  allStores?: boolean;
  resources?: string[];
}

let tokenCounter = 0;
/** The contract `integration:token:create` runs (named, not imported: the testing entry point depends on no module). */
const TOKEN_SERVICE = 'Dispensary\\Integration\\Api\\IntegrationTokenServiceInterface';

/** What that contract's create() takes (modules/Dispensary/Integration/Api/IntegrationTokenServiceInterface.ts). */
interface TokenRequest {
  name: string;
  store?: string;
  allStores: boolean;
  resources: string[];
}

export class TestApp {
  private constructor(
    readonly app: Application,
    readonly http: Express,
    private readonly database: TestDatabase,
    private readonly options: ApplicationOptions,
  ) {}

  static async start(testOptions: TestAppOptions = {}): Promise<TestApp> {
    const { modules, ...given } = testOptions;
    if (modules && given.moduleConfigFile) throw new Error('TestApp.start: give modules or moduleConfigFile, not both');
    const options: ApplicationOptions = given.moduleSources
      ? { ...given, moduleSources: preferOwnCopies(given.moduleSources) }
      : given;
    // A config.json of its own, so that a CLI command that edits it (t.cli) changes no other test's.
    const moduleConfigFile = options.moduleConfigFile ?? writeModuleConfig(modules, options.moduleSources);
    const database = await createTestDatabase();
    const merged: ApplicationOptions = { ...options, moduleConfigFile, databaseUrl: database.url };
    let app: Application | undefined;
    try {
      app = await Application.create(merged);
      // A SQLite file starts as a copy of one these modules' migrations made before (sqliteTemplate.ts).
      const migrated = startFromTemplate(app, database.url);
      await app.setupUpgrade();
      await migrated();
      return new TestApp(app, app.http(), database, merged);
    } catch (error) {
      await app?.close();
      await database.release();
      throw error;
    }
  }

  /**
   * Requests through the whole application without a socket, in supertest's words: the agent's
   * `post(url).set('Authorization', ...).send(body)`, awaited, answers `{ status, body, ... }`.
   */
  request(options?: InjectAgentOptions): InjectAgent {
    return injectAgent(this.http, options);
  }

  get databaseUrl(): string {
    return this.database.url;
  }

  /** Runs a CLI command against the same database; answers exit code and output lines. */
  async cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['node', 'cli', ...argv],
      { out: (l) => out.push(...l.split('\n')), err: (l) => err.push(l) },
      this.options,
    );
    return { code, out, err };
  }

  async createStore(code: string, name = code.toUpperCase()): Promise<void> {
    const result = await this.cli('store:create', '--code', code, '--name', name);
    if (result.code !== 0) throw new Error(`store:create failed: ${result.err.join('\n')}`);
  }

  /**
   * Creates an integration token through the service `integration:token:create` calls
   * (Dispensary_Integration's IntegrationTokenServiceInterface), in this application: the same
   * token and grant as the command's, without building the CLI's own application for each one
   * (about 25 ms of CPU; the suite makes hundreds). The command itself: `t.cli('integration:token:create', ...)`.
   */
  async integrationToken(options: TokenOptions = {}): Promise<string> {
    const tokens = this.app.get<{ create(request: TokenRequest): Promise<string> }>(TOKEN_SERVICE);
    return tokens.create({
      name: options.name ?? `test-${++tokenCounter}`,
      store: options.allStores ? undefined : (options.store ?? 'default'),
      allStores: options.allStores === true,
      resources: options.resources ?? [],
    });
  }

  async stop(): Promise<void> {
    await this.app.close();
    await this.database.release();
  }
}
