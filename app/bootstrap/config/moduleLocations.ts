import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { findModulePackages, type ModuleSources } from '../../framework/module/ModuleLoader.js';
import { moduleConfigFile } from './DeploymentConfig.js';
import { DIST_ROOT, PROJECT_ROOT } from './paths.js';

const versions = new Map<string, string>();

/** This runtime's version (package.json), which a module package's `dispensary.runtime` range must include. */
export function runtimeVersion(root = PROJECT_ROOT): string {
  let version = versions.get(root);
  if (version === undefined) {
    version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
    versions.set(root, version);
  }
  return version;
}

const found = new Map<string, { key: string; dirs: string[] }>();

const scopesOf = new Map<string, { mtimeMs: number; scopes: string[] }>();

/**
 * What changes when npm adds, removes or replaces a package: the folders' modification times. The
 * list of @scope folders is read again only when node_modules' own time changes (a scope added or
 * removed changes it): listing ~400 entries on every start cost more than the rest of the check.
 */
function installKey(nodeModulesDir: string): string {
  const top = statSync(nodeModulesDir, { throwIfNoEntry: false });
  if (!top) return 'none';
  let known = scopesOf.get(nodeModulesDir);
  if (known?.mtimeMs !== top.mtimeMs) {
    const scopes = readdirSync(nodeModulesDir).filter((entry) => entry.startsWith('@'));
    known = { mtimeMs: top.mtimeMs, scopes: scopes.map((scope) => path.join(nodeModulesDir, scope)) };
    scopesOf.set(nodeModulesDir, known);
  }
  return [
    `${nodeModulesDir}:${top.mtimeMs}`,
    ...known.scopes.map((dir) => `${dir}:${statSync(dir, { throwIfNoEntry: false })?.mtimeMs}`),
  ].join('|');
}

/**
 * The module packages installed in a node_modules folder, as module sources (docs/module-packages.md).
 * Which packages declare a module is remembered until npm changes the folder (every Application and
 * CLI command asks; reading the ~400 package.json files takes tens of milliseconds).
 */
export function packageSourcesIn(nodeModulesDir: string, root = PROJECT_ROOT): ModuleSources[] {
  const key = installKey(nodeModulesDir);
  let entry = found.get(nodeModulesDir);
  if (entry?.key !== key) {
    entry = { key, dirs: findModulePackages(nodeModulesDir) };
    found.set(nodeModulesDir, entry);
  }
  return entry.dirs.map((dir) => ({
    modulesDir: dir,
    codeDir: dir,
    package: { runtimeVersion: runtimeVersion(root) },
  }));
}

/**
 * Where modules live unless told otherwise: `modules/` (sources) and `dist/modules/` (compiled),
 * then the module packages installed in `node_modules/`.
 */
export function moduleSourcesOf(options: {
  readonly moduleSources?: readonly ModuleSources[];
}): readonly ModuleSources[] {
  return (
    options.moduleSources ?? [
      { modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') },
      ...packageSourcesIn(path.join(PROJECT_ROOT, 'node_modules')),
    ]
  );
}

/** The file that enables modules: the option, else MODULE_CONFIG_FILE, else `etc/config.json`. */
export function moduleConfigFileOf(options: { readonly moduleConfigFile?: string }): string {
  return options.moduleConfigFile ?? moduleConfigFile();
}
