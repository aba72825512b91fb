/**
 * Writes throw-away module trees (module.xml, di.xml, webapi.xml, acl.xml, etc/config.json) into a
 * temporary folder, so each test states the exact config it exercises. Their TypeScript lives in
 * compiled fixture trees (test/fixtures/<name>/modules): a tree's `codeDir` points there, so a
 * class name `Fixture\Dispatch\Plugin\PluginA` resolves to the compiled fixture.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Application, type ApplicationOptions } from '../../../app/bootstrap/Application.js';
import { DIST_ROOT, PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { runCli } from '../../../app/cli/Cli.js';
import type { Area } from '../../../app/framework/config/Area.js';
import { ConfigError } from '../../../app/framework/xml/xml.js';
import type { ModuleSources } from '../../../app/framework/module/ModuleLoader.js';

/** Compiled fixture modules (TypeScript of test/fixtures/<name>/modules). */
export function fixtureCodeDir(name: string): string {
  return path.join(DIST_ROOT, 'test', 'fixtures', name, 'modules');
}

/** Fixture module sources (XML next to the TypeScript). */
export function fixtureSourceDir(name: string): string {
  return path.join(PROJECT_ROOT, 'test', 'fixtures', name, 'modules');
}

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

export function configXml(body: string): string {
  return `<?xml version="1.0"?>\n<config ${XSI}>\n${body}\n</config>\n`;
}

export function routesXml(body: string): string {
  return `<?xml version="1.0"?>\n<routes ${XSI}>\n${body}\n</routes>\n`;
}

export function moduleXml(name: string, sequence: readonly string[] = []): string {
  if (sequence.length === 0) return configXml(`  <module name="${name}"/>`);
  const deps = sequence.map((dep) => `      <module name="${dep}"/>`).join('\n');
  return configXml(`  <module name="${name}">\n    <sequence>\n${deps}\n    </sequence>\n  </module>`);
}

export class ModuleTree {
  readonly modulesDir: string;
  readonly configFile: string;
  private readonly disabled: Record<string, boolean> = {};
  /** Every Application booted on this tree, closed by dispose(). */
  private readonly booted: Application[] = [];

  private constructor(
    readonly root: string,
    /** Where compiled code of these modules lives. */
    readonly codeDir: string,
  ) {
    this.modulesDir = path.join(root, 'modules');
    this.configFile = path.join(root, 'config.json');
    mkdirSync(this.modulesDir, { recursive: true });
    writeFileSync(this.configFile, JSON.stringify({ modules: {} }));
  }

  /** `fixture`: the compiled fixture tree the classes come from (test/fixtures/<fixture>). */
  static create(fixture = 'runtime'): ModuleTree {
    return new ModuleTree(mkdtempSync(path.join(os.tmpdir(), 'module-tree-')), fixtureCodeDir(fixture));
  }

  dir(name: string): string {
    const [vendor, module] = name.split('_');
    return path.join(this.modulesDir, vendor!, module!);
  }

  /** Adds `Vendor_Module` with a module.xml (unless given in `files`) and other files by relative path. */
  module(name: string, options: { sequence?: readonly string[]; files?: Record<string, string> } = {}): this {
    const files = { 'etc/module.xml': moduleXml(name, options.sequence), ...(options.files ?? {}) };
    for (const [relative, content] of Object.entries(files)) this.file(name, relative, content);
    return this;
  }

  /**
   * Adds `Vendor_Module` with the etc/*.xml of that module in the tree's fixture (its code is there
   * already), but a module.xml of its own: the fixture's <sequence> may name modules not in this tree.
   */
  fixtureModule(fixture: string, name: string, options: { sequence?: readonly string[] } = {}): this {
    const [vendor, module] = name.split('_');
    const etc = path.join(fixtureSourceDir(fixture), vendor!, module!, 'etc');
    const files: Record<string, string> = {};
    for (const entry of readdirSync(etc, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.xml')) continue;
      const relative = path.relative(etc, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (relative !== 'module.xml')
        files[`etc/${relative}`] = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    }
    return this.module(name, { sequence: options.sequence, files });
  }

  file(name: string, relative: string, content: string): this {
    const file = path.join(this.dir(name), relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    return this;
  }

  /** Path of a file of a module, as error messages name it. */
  path(name: string, relative: string): string {
    return path.join(this.dir(name), relative);
  }

  setEnabled(name: string, enabled: boolean): this {
    this.disabled[name] = enabled;
    writeFileSync(this.configFile, JSON.stringify({ modules: this.disabled }));
    return this;
  }

  sources(): ModuleSources[] {
    return [{ modulesDir: this.modulesDir, codeDir: this.codeDir }];
  }

  options(area: Area = 'global', extra: ApplicationOptions = {}): ApplicationOptions {
    return {
      area,
      moduleSources: this.sources(),
      moduleConfigFile: this.configFile,
      databaseUrl: 'sqlite::memory:',
      ...extra,
    };
  }

  /** Boots an Application on this tree (no database is opened unless used); dispose() closes it. */
  async boot(area: Area = 'global', extra: ApplicationOptions = {}): Promise<Application> {
    const app = await Application.create(this.options(area, extra));
    this.booted.push(app);
    return app;
  }

  /** Runs a command line on this tree through the real CLI entry; answers the exit code and the output lines. */
  async cli(
    argv: readonly string[],
    extra: ApplicationOptions = {},
  ): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['node', 'cli', ...argv],
      { out: (line) => out.push(...line.split('\n')), err: (line) => err.push(line) },
      this.options('global', extra),
    );
    return { code, out, err };
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  /** Closes every Application booted on this tree, then removes the tree: one afterEach for both. */
  async dispose(): Promise<void> {
    for (const app of this.booted.splice(0)) await app.close();
    this.remove();
  }
}

/** Asserts that `action` fails with a ConfigError whose message contains every fragment. */
export async function expectConfigError(action: () => unknown, ...fragments: string[]): Promise<ConfigError> {
  let caught: unknown;
  try {
    await action();
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected a ConfigError').to.be.instanceOf(ConfigError);
  for (const fragment of fragments) expect((caught as Error).message).to.contain(fragment);
  return caught as ConfigError;
}
