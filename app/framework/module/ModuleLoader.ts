/**
 * Finds the modules under a modules folder (`<Vendor>/<Module>/etc/module.xml`), drops those that
 * etc/config.json disables, and orders the rest so that every module loads after the modules
 * its <sequence> names. A dropped-in module folder is enabled with no other change.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
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
}

export interface ModuleSources {
  /** Folder holding `<Vendor>/<Module>/etc/module.xml`. */
  readonly modulesDir: string;
  /** Folder the TypeScript compiler wrote the same tree to. */
  readonly codeDir: string;
  /** `Vendor_Module`s of this folder to pass over, as if absent (a test that brings its own copy of one). */
  readonly exclude?: readonly string[];
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

/** Discovers every module folder of the given sources, enabled or not. */
export function discoverModules(sources: readonly ModuleSources[]): ModuleDefinition[] {
  const found: ModuleDefinition[] = [];
  const seen = new Map<string, string>();
  for (const source of sources) {
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
        if (other) throw new ConfigError(`Module ${xml.name} is declared twice: ${other} and ${dir}`);
        seen.set(xml.name, dir);
        const compiled = path.join(source.codeDir, vendor, moduleName);
        found.push({
          name: xml.name,
          vendor,
          module: moduleName,
          dir,
          codeDir: existsSync(compiled) ? compiled : dir,
          sequence: xml.sequence,
          setupVersion: xml.setupVersion,
        });
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
  const disabled = new Set(
    Object.entries(config.modules ?? {})
      .filter(([, on]) => !on)
      .map(([name]) => name),
  );
  const enabled = new Map(all.filter((m) => !disabled.has(m.name)).map((m) => [m.name, m] as const));
  const known = new Set(all.map((m) => m.name));
  for (const module of enabled.values()) {
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
