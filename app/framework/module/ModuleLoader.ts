/**
 * Finds the modules under a modules folder (`<Vendor>/<Module>/etc/module.xml`), drops those that
 * etc/config.json disables, and orders the rest so that every module loads after the modules
 * its <sequence> names. A dropped-in module folder is enabled with no other change.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
// The two functions used, from their own files: semver's index loads all of its ~50 (every process's start).
import satisfies from 'semver/functions/satisfies.js';
import validRange from 'semver/ranges/valid.js';
import { ConfigError, checkElement, parseXmlFile } from '../xml/xml.js';

export interface ModuleDefinition {
  /** `Vendor_Module` */
  readonly name: string;
  readonly vendor: string;
  readonly module: string;
  /** The module's source folder (etc/*.xml, README, TypeScript). */
  readonly dir: string;
  /** Where its compiled JavaScript lives (the same folder for a plain-JavaScript module). */
  readonly codeDir: string;
  readonly sequence: readonly string[];
  readonly setupVersion?: string;
  /** Set when the module is an npm package (found in node_modules): see docs/module-packages.md. */
  readonly package?: ModulePackage;
}

/** What a module package's package.json says about it. */
export interface ModulePackage {
  /** The npm package name (`acme-packaged-limits`, `@acme/limits`). */
  readonly name: string;
  readonly version: string;
  /** `dispensary.runtime`: the semver range of runtime versions it works with. */
  readonly runtimeRange: string;
  /** The runtime's own version, which start-up checks against the range. */
  readonly runtimeVersion: string;
  /** The package.json that declares it. */
  readonly file: string;
}

/** The package.json field that declares a module package, and the keyword that makes it findable. */
export const PACKAGE_FIELD = 'dispensary';
export const PACKAGE_KEYWORD = 'dispensary-module';

export interface ModuleSources {
  /** Folder holding `<Vendor>/<Module>/etc/module.xml`. */
  readonly modulesDir: string;
  /** Folder the TypeScript compiler wrote the same tree to. */
  readonly codeDir: string;
  /** `Vendor_Module`s of this folder to pass over, as if absent (a test that brings its own copy of one). */
  readonly exclude?: readonly string[];
  /**
   * Set when `modulesDir` is one npm package's folder (its package.json declares the module, see
   * docs/module-packages.md); `codeDir` is then read from the package.json's `dispensary.code`.
   */
  readonly package?: { readonly runtimeVersion: string };
}

export interface ModuleConfig {
  /** `{ "Vendor_Module": false }` disables; anything not listed is enabled. */
  readonly modules?: Readonly<Record<string, boolean>>;
}

export function readModuleConfig(file: string): ModuleConfig {
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  const modules = (parsed as ModuleConfig).modules;
  if (modules !== undefined && (typeof modules !== 'object' || modules === null)) {
    throw new ConfigError(`${file}: "modules" must be an object of module name to true/false`);
  }
  for (const [name, enabled] of Object.entries(modules ?? {})) {
    if (typeof enabled !== 'boolean') throw new ConfigError(`${file}: modules.${name} must be true or false`);
  }
  return parsed as ModuleConfig;
}

function listDirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((entry) => !entry.startsWith('.') && statSync(path.join(dir, entry)).isDirectory())
    .sort();
}

export function readModuleXml(file: string): { name: string; sequence: string[]; setupVersion?: string } {
  const root = parseXmlFile(file);
  if (root.name !== 'config') throw new ConfigError(`${file}: the root element must be <config>`);
  checkElement(root, { children: ['module'] }, file);
  if (root.children.length !== 1) throw new ConfigError(`${file}: expected exactly one <module>`);
  const module = root.children[0]!;
  checkElement(module, { required: ['name'], optional: ['setup_version'], children: ['sequence'] }, file, 'module');
  const sequence: string[] = [];
  for (const seq of module.children) {
    checkElement(seq, { children: ['module'] }, file, 'sequence');
    for (const dep of seq.children) {
      checkElement(dep, { required: ['name'] }, file, 'sequence/module');
      sequence.push(dep.attrs.name!);
    }
  }
  return { name: module.attrs.name!, sequence, setupVersion: module.attrs.setup_version };
}

/**
 * The folders of the packages in a node_modules folder (top-level and `@scope/name`) whose
 * package.json declares a module: a `dispensary` field (the keyword alone is not enough, and says so).
 */
export function findModulePackages(nodeModulesDir: string): string[] {
  const candidates: string[] = [];
  for (const entry of listDirs(nodeModulesDir)) {
    if (entry.startsWith('@')) {
      for (const scoped of listDirs(path.join(nodeModulesDir, entry)))
        candidates.push(path.join(nodeModulesDir, entry, scoped));
    } else candidates.push(path.join(nodeModulesDir, entry));
  }
  return candidates.filter((dir) => {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) return false;
    const text = readFileSync(file, 'utf8');
    // Most packages are no modules: only the ones that mention the field or keyword are parsed.
    if (!text.includes(`"${PACKAGE_FIELD}"`) && !text.includes(PACKAGE_KEYWORD)) return false;
    const json = parsePackageJson(file, text);
    if (json[PACKAGE_FIELD] !== undefined) return true;
    if (Array.isArray(json.keywords) && json.keywords.includes(PACKAGE_KEYWORD)) {
      throw new ConfigError(
        `${file}: the package has the keyword "${PACKAGE_KEYWORD}" but no "${PACKAGE_FIELD}" field; a module package declares ` +
          `"${PACKAGE_FIELD}": { "module": "Vendor_Module", "runtime": "<semver range>" }`,
      );
    }
    return false;
  });
}

function parsePackageJson(file: string, text = readFileSync(file, 'utf8')): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
}

/** A module package's folder as a module: package.json's `dispensary` field and its etc/module.xml. */
function readModulePackage(dir: string, runtimeVersion: string): ModuleDefinition {
  const file = path.join(dir, 'package.json');
  const json = parsePackageJson(file);
  const field = json[PACKAGE_FIELD] as Record<string, unknown> | undefined;
  const where = `${file}: "${PACKAGE_FIELD}"`;
  if (typeof field !== 'object' || field === null || Array.isArray(field))
    throw new ConfigError(`${where} must be an object: { "module": "Vendor_Module", "runtime": "<semver range>" }`);
  const { module: name, runtime, code = '.' } = field;
  if (typeof name !== 'string' || !/^[A-Z][A-Za-z0-9]*_[A-Z][A-Za-z0-9]*$/.test(name))
    throw new ConfigError(`${where}.module must be a module name like "Vendor_Module"`);
  if (typeof runtime !== 'string' || validRange(runtime) === null)
    throw new ConfigError(
      `${where}.runtime must be a semver range of the runtime versions it works with (e.g. "^0.1.0")`,
    );
  if (typeof code !== 'string' || path.isAbsolute(code) || code.split(/[\\/]/).includes('..'))
    throw new ConfigError(`${where}.code must be a folder inside the package (its compiled JavaScript), e.g. "dist"`);
  const moduleXml = path.join(dir, 'etc', 'module.xml');
  if (!existsSync(moduleXml))
    throw new ConfigError(`${file}: declares module ${name} but the package has no etc/module.xml`);
  const xml = readModuleXml(moduleXml);
  if (xml.name !== name)
    throw new ConfigError(
      `${moduleXml}: module name "${xml.name}" does not match ${PACKAGE_FIELD}.module "${name}" of ${file}`,
    );
  const [vendor, module] = name.split('_') as [string, string];
  return {
    name,
    vendor,
    module,
    dir,
    codeDir: path.join(dir, code),
    sequence: xml.sequence,
    setupVersion: xml.setupVersion,
    package: {
      name: typeof json.name === 'string' ? json.name : path.basename(dir),
      version: typeof json.version === 'string' ? json.version : '0.0.0',
      runtimeRange: runtime,
      runtimeVersion,
      file,
    },
  };
}

/** Start-up's check of a module package: the runtime it runs on must be in its range. */
export function checkRuntimeRange(module: ModuleDefinition): void {
  const pkg = module.package;
  if (!pkg || satisfies(pkg.runtimeVersion, pkg.runtimeRange, { includePrerelease: true })) return;
  throw new ConfigError(
    `Package ${pkg.name}@${pkg.version} (module ${module.name}, ${pkg.file}) supports dispensary-runtime ${pkg.runtimeRange}, ` +
      `but this runtime is ${pkg.runtimeVersion}: install a version of ${pkg.name} made for it, or disable ${module.name}`,
  );
}

/** Where a module comes from, for messages: its folder, and for a package its name and version. */
export function moduleOrigin(module: ModuleDefinition): string {
  return module.package ? `package ${module.package.name}@${module.package.version} in ${module.dir}` : module.dir;
}

/**
 * Whether the config enables a module: a module folder of modules/ unless it is listed `false`, a
 * module package only when listed `true` (`module:enable`): installing a package changes nothing
 * until someone enables it.
 */
export function isEnabled(module: ModuleDefinition, config: ModuleConfig): boolean {
  const status = config.modules?.[module.name];
  return module.package ? status === true : status !== false;
}

/** Discovers every module folder of the given sources, enabled or not. */
export function discoverModules(sources: readonly ModuleSources[]): ModuleDefinition[] {
  const found: ModuleDefinition[] = [];
  const seen = new Map<string, ModuleDefinition>();
  for (const source of sources) {
    if (source.package) {
      const definition = readModulePackage(source.modulesDir, source.package.runtimeVersion);
      if (source.exclude?.includes(definition.name)) continue;
      const other = seen.get(definition.name);
      if (other)
        throw new ConfigError(
          `Module ${definition.name} is declared twice: ${moduleOrigin(other)} and ${moduleOrigin(definition)}`,
        );
      seen.set(definition.name, definition);
      found.push(definition);
      continue;
    }
    for (const vendor of listDirs(source.modulesDir)) {
      for (const moduleName of listDirs(path.join(source.modulesDir, vendor))) {
        if (source.exclude?.includes(`${vendor}_${moduleName}`)) continue;
        const dir = path.join(source.modulesDir, vendor, moduleName);
        const file = path.join(dir, 'etc', 'module.xml');
        if (!existsSync(file)) continue;
        const xml = readModuleXml(file);
        const expected = `${vendor}_${moduleName}`;
        if (xml.name !== expected) {
          throw new ConfigError(
            `${file}: module name "${xml.name}" does not match its folder ${vendor}/${moduleName} (expected "${expected}")`,
          );
        }
        const other = seen.get(xml.name);
        if (other) throw new ConfigError(`Module ${xml.name} is declared twice: ${moduleOrigin(other)} and ${dir}`);
        const compiled = path.join(source.codeDir, vendor, moduleName);
        const definition: ModuleDefinition = {
          name: xml.name,
          vendor,
          module: moduleName,
          dir,
          codeDir: existsSync(compiled) ? compiled : dir,
          sequence: xml.sequence,
          setupVersion: xml.setupVersion,
        };
        seen.set(xml.name, definition);
        found.push(definition);
      }
    }
  }
  return found;
}

/**
 * Orders enabled modules: dependencies first, otherwise alphabetical (stable, so load order and
 * thus config merge order never depend on the file system).
 */
export function orderModules(all: readonly ModuleDefinition[], config: ModuleConfig = {}): ModuleDefinition[] {
  const enabled = new Map(all.filter((m) => isEnabled(m, config)).map((m) => [m.name, m] as const));
  const known = new Set(all.map((m) => m.name));
  for (const module of enabled.values()) {
    checkRuntimeRange(module);
    for (const dep of module.sequence) {
      if (!enabled.has(dep)) {
        const why = known.has(dep) ? 'which is disabled' : 'which is not installed';
        throw new ConfigError(`Module ${module.name} depends on ${dep}, ${why}`);
      }
    }
  }
  const ordered: ModuleDefinition[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (module: ModuleDefinition, trail: string[]): void => {
    const current = state.get(module.name);
    if (current === 'done') return;
    if (current === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(module.name)), module.name];
      throw new ConfigError(`Circular module dependency: ${cycle.join(' -> ')}`);
    }
    state.set(module.name, 'visiting');
    for (const dep of [...module.sequence].sort()) visit(enabled.get(dep)!, [...trail, module.name]);
    state.set(module.name, 'done');
    ordered.push(module);
  };
  for (const name of [...enabled.keys()].sort()) visit(enabled.get(name)!, []);
  return ordered;
}

export function loadModules(sources: readonly ModuleSources[], configFile?: string): ModuleDefinition[] {
  const config = configFile ? readModuleConfig(configFile) : {};
  return orderModules(discoverModules(sources), config);
}
