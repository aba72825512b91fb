/**
 * Switching modules on and off in etc/config.json, with Magento's checks
 * (Framework\Module\Status, DependencyChecker): an unknown name is refused, and no change may leave
 * an enabled module whose <sequence> names a disabled one. The file is rewritten whole (its other
 * keys kept) through a temporary file and a rename, so a reader never sees half of it.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { ConfigError } from '../xml/xml.js';
import { isEnabled, readModuleConfig, type ModuleConfig, type ModuleDefinition } from './ModuleLoader.js';

/** Names of the installed modules that the config leaves enabled (ModuleLoader's isEnabled). */
export function enabledModuleNames(installed: readonly ModuleDefinition[], config: ModuleConfig): Set<string> {
  return new Set(installed.filter((module) => isEnabled(module, config)).map((module) => module.name));
}

/** Magento's `Unknown module(s): 'A', 'B'` for names no module folder declares. */
export function checkKnown(names: readonly string[], installed: readonly ModuleDefinition[]): void {
  const known = new Set(installed.map((module) => module.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length) throw new ConfigError(`Unknown module(s): '${unknown.join("', '")}'`);
}

/** The named modules whose status differs from `enable` (Status::getModulesToChange). */
export function modulesToChange(
  enable: boolean,
  names: readonly string[],
  installed: readonly ModuleDefinition[],
  config: ModuleConfig,
): string[] {
  checkKnown(names, installed);
  const enabled = enabledModuleNames(installed, config);
  return [...new Set(names)].filter((name) => enabled.has(name) !== enable);
}

/**
 * Status::checkConstraints: for each module to enable, the dependencies that would stay disabled
 * (or are not installed); for each module to disable, the enabled modules that depend on it, each
 * with the <sequence> path between them (`Acme_B->Acme_A`).
 */
export function checkConstraints(
  enable: boolean,
  changing: readonly string[],
  installed: readonly ModuleDefinition[],
  config: ModuleConfig,
): string[] {
  const byName = new Map(installed.map((module) => [module.name, module] as const));
  const after = enabledModuleNames(installed, config);
  for (const name of changing) {
    if (enable) after.add(name);
    else after.delete(name);
  }
  const messages: string[] = [];
  for (const name of changing) {
    const found = enable ? missingDependencies(name, byName, after) : dependents(name, byName, after);
    if (found.length === 0) continue;
    messages.push(
      enable
        ? `Cannot enable ${name}, depending on disabled modules:`
        : `Cannot disable ${name}, modules depending on it:`,
    );
    for (const { module, path } of found)
      messages.push(`${module}: ${path.join('->')}${enable && !byName.has(module) ? ' (not installed)' : ''}`);
  }
  return messages;
}

/** Enabled modules (other than `target`) whose <sequence>, directly or through others, names `target`. */
export function dependents(
  target: string,
  byName: ReadonlyMap<string, ModuleDefinition>,
  enabled: ReadonlySet<string>,
): { module: string; path: string[] }[] {
  const found: { module: string; path: string[] }[] = [];
  for (const name of [...enabled].sort()) {
    if (name === target) continue;
    const path = pathTo(name, target, byName, new Set());
    if (path) found.push({ module: name, path });
  }
  return found;
}

function missingDependencies(
  name: string,
  byName: ReadonlyMap<string, ModuleDefinition>,
  enabled: ReadonlySet<string>,
): { module: string; path: string[] }[] {
  const found = new Map<string, string[]>();
  const visit = (current: string, trail: string[]): void => {
    for (const dep of byName.get(current)?.sequence ?? []) {
      if (trail.includes(dep)) continue;
      const path = [...trail, dep];
      if (!enabled.has(dep)) {
        if (!found.has(dep)) found.set(dep, path);
      } else visit(dep, path);
    }
  };
  visit(name, [name]);
  return [...found].map(([module, path]) => ({ module, path }));
}

function pathTo(
  from: string,
  target: string,
  byName: ReadonlyMap<string, ModuleDefinition>,
  seen: Set<string>,
): string[] | null {
  if (seen.has(from)) return null;
  seen.add(from);
  for (const dep of byName.get(from)?.sequence ?? []) {
    if (dep === target) return [from, dep];
    const rest = pathTo(dep, target, byName, seen);
    if (rest) return [from, ...rest];
  }
  return null;
}

/**
 * Writes `changes` into the config file's `modules`: true/false sets the module's status, null
 * drops its entry (a module not listed is enabled when its folder is there).
 */
export function writeModuleStatus(file: string, changes: Readonly<Record<string, boolean | null>>): void {
  readModuleConfig(file); // refuses a broken file before touching it
  const parsed = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const modules = { ...((parsed.modules as Record<string, boolean> | undefined) ?? {}) };
  for (const [name, status] of Object.entries(changes)) {
    if (status === null) delete modules[name];
    else modules[name] = status;
  }
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ ...parsed, modules }, null, 2)}\n`);
  renameSync(temporary, file);
}
