/**
 * Which modules a test runs with. The project's tests never depend on what else sits in
 * `modules/` or on what `etc/config.json` says: test/setup.ts points MODULE_CONFIG_FILE (which the
 * Application, the CLI, server processes and knexfile.ts read) at a config of the suite's own, in
 * which the project's modules are on and every other folder in `modules/` is off. A test that wants
 * another set says so:
 *
 *   TestApp.start()                                              // the project's modules
 *   TestApp.start({ modules: { Acme_RecommendationNotes: true } })  // ... plus one
 *   TestApp.start({ modules: { Dispensary_AsynchronousOperations: false } })  // ... minus one
 *   TestApp.start({ modules: ['Dispensary_Store'] })             // exactly these
 *
 * Modules of a folder the test passes itself (`moduleSources`) are on unless named `false`; with
 * a list, only the listed ones are. Such a folder's module wins over a copy of it in `modules/`
 * (a reader who copied the guide's module there still runs the guide's tests on the original).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST_ROOT, PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { discoverModules, type ModuleSources } from '../../app/framework/module/ModuleLoader.js';

/** The modules the project ships enabled: what every test gets unless it says otherwise. */
export const PROJECT_MODULES: readonly string[] = [
  'Dispensary_AsynchronousOperations',
  'Dispensary_Catalog',
  'Dispensary_Eventing',
  'Dispensary_Integration',
  'Dispensary_OutOfProcessExtensibility',
  'Dispensary_Recommendation',
  'Dispensary_Store',
  'Dispensary_Webhooks',
];

/** The project's `modules/` folder and its compiled copy. */
export const PROJECT_MODULE_SOURCES: ModuleSources = {
  modulesDir: path.join(PROJECT_ROOT, 'modules'),
  codeDir: path.join(DIST_ROOT, 'modules'),
};

/**
 * The sources with the project's `modules/` passing over any module that another of the sources
 * holds too: a test that brings its own copy of a module gets that copy (not "declared twice").
 */
export function preferOwnCopies(sources: readonly ModuleSources[]): ModuleSources[] {
  const isProject = (source: ModuleSources) =>
    path.resolve(source.modulesDir) === path.resolve(PROJECT_MODULE_SOURCES.modulesDir);
  const own = discoverModules(sources.filter((source) => !isProject(source))).map((m) => m.name);
  return sources.map((source) =>
    isProject(source) && own.length ? { ...source, exclude: [...(source.exclude ?? []), ...own] } : source,
  );
}

/** `{ Name: true }` adds a module to the project's, `{ Name: false }` removes one; a list is exactly those modules. */
export type ModuleSelection = readonly string[] | Readonly<Record<string, boolean>>;

/** The `etc/config.json` map for a selection: every module the sources hold, on or off. */
export function moduleConfigFor(
  selection: ModuleSelection = {},
  sources: readonly ModuleSources[] = [PROJECT_MODULE_SOURCES],
): Record<string, boolean> {
  const found = discoverModules(sources);
  const known = new Set(found.map((m) => m.name));
  const named = Array.isArray(selection) ? selection : Object.keys(selection);
  const unknown = named.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new Error(
      `No module ${unknown.join(', ')} in ${sources.map((s) => s.modulesDir).join(', ')} (found: ${[...known].sort().join(', ')})`,
    );
  }
  const config: Record<string, boolean> = {};
  for (const module of found) {
    if (Array.isArray(selection)) config[module.name] = selection.includes(module.name);
    else {
      const fromProjectFolder =
        path.resolve(path.dirname(path.dirname(module.dir))) === path.resolve(PROJECT_MODULE_SOURCES.modulesDir);
      const byDefault = fromProjectFolder ? PROJECT_MODULES.includes(module.name) : true;
      config[module.name] = (selection as Readonly<Record<string, boolean>>)[module.name] ?? byDefault;
    }
  }
  return config;
}

let folder: string | undefined;
let written = 0;

/** Writes the selection as a config.json of its own (removed when the test process exits); answers its path. */
export function writeModuleConfig(selection?: ModuleSelection, sources?: readonly ModuleSources[]): string {
  if (!folder) {
    const created = mkdtempSync(path.join(os.tmpdir(), 'test-modules-'));
    folder = created;
    process.on('exit', () => rmSync(created, { recursive: true, force: true }));
  }
  const file = path.join(folder, `config-${++written}.json`);
  writeFileSync(file, JSON.stringify({ modules: moduleConfigFor(selection, sources) }, null, 2));
  return file;
}
