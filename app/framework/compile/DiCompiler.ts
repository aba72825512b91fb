/**
 * `setup:di:compile`: reads every module's XML and writes TypeScript under `generated/` that makes
 * the compiler check what Magento's InterfaceValidator checks at compile time, and more:
 *
 *   - every plugin class against every type it is declared on: each beforeX, aroundX and afterX
 *     method (pluginMethodNames.ts reads them from the source) against T::x (PluginMethod<T, kind,
 *     'x'>: arguments, arity, result, sync/async), that T has x (else NoSuchTargetMethod), and
 *     that the subject is typed (TypedSubject: not unknown or any);
 *   - every preference class against the contract (or class) it serves;
 *   - every observer against the data its event carries (a module's `Api/events.ts` declares it);
 *   - etc/extension_attributes.xml as Magento's `...ExtensionInterface`: a module augmentation of
 *     the data interface's file, so `result.extension_attributes?.code` has its declared type.
 *
 * It covers every module folder found, enabled or not: the compiler compiles a disabled module's
 * code too, and that code must see its own extension attributes. The generated files hold only
 * types, so they cost nothing at run time. A name that does not resolve to a TypeScript file is
 * left to the start-up checks (reported as `skipped`).
 *
 * A module installed as an npm package (docs/module-packages.md) is checked the same way from the
 * `.d.ts` files it ships next to its JavaScript; a package that ships none is reported as
 * `unchecked`, and its classes are left to the start-up checks.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DI_AREAS } from '../config/Area.js';
import { mergeDiFile, DiConfig } from '../config/DiConfig.js';
import { moduleXmlFile } from '../config/moduleXmlFiles.js';
import { parseXmlFile } from '../xml/xml.js';
import { mergeEventFile, EventConfig, EVENT_AREAS } from '../event/EventConfig.js';
import { readExtensionAttributesConfig } from '../extension/ExtensionAttributesConfig.js';
import { discoverModules, moduleOrigin, type ModuleDefinition, type ModuleSources } from '../module/ModuleLoader.js';
import { implementedContracts } from './implementedContracts.js';
import { pluginMethodNames } from './pluginMethodNames.js';

export interface DiCompileOptions {
  /** The project root: `generated/` is written there, and `#framework` resolves from it. */
  readonly projectRoot: string;
  /** Folders holding `<Vendor>/<Module>/etc/module.xml`; names resolve in all of them. */
  readonly modulesDirs: readonly string[];
  /** Where to write; `<projectRoot>/generated` unless given. */
  readonly outDir?: string;
  /** The framework's public types (`#framework` unless given, e.g. a path for a test). */
  readonly frameworkImport?: string;
  /** Module packages' folders (each package.json declares one module), after the module folders. */
  readonly packageSources?: readonly ModuleSources[];
}

export interface DiCompileResult {
  readonly files: string[];
  readonly checks: number;
  /** Names left to the start-up checks: no TypeScript file declares them. */
  readonly skipped: string[];
  /** Extension attributes left untyped, each with what to add. */
  readonly untyped: string[];
  /** Module packages that ship no `.d.ts` types: nothing of theirs is checked by the compiler. */
  readonly unchecked: string[];
}

const TS_SCALARS: Record<string, string> = { string: 'string', int: 'number', float: 'number', boolean: 'boolean' };

/** Magento's name for the generated interface: `FooInterface` -> `FooExtensionInterface`. */
/**
 * The file that types a module's `parts` (`['Model', 'Foo']`): its TypeScript source, or for a
 * module package the `.d.ts` it ships next to its compiled JavaScript.
 */
export function typeFileOf(module: ModuleDefinition, parts: readonly string[]): string | undefined {
  const candidates = module.package
    ? [path.join(module.codeDir, ...parts) + '.d.ts', path.join(module.dir, ...parts) + '.ts']
    : [path.join(module.dir, ...parts) + '.ts'];
  return candidates.find((file) => existsSync(file));
}

/** Whether a module package ships any `.d.ts` file. */
function shipsTypes(module: ModuleDefinition): boolean {
  const walk = (dir: string): boolean =>
    existsSync(dir) &&
    readdirSync(dir, { withFileTypes: true }).some((entry) =>
      entry.isDirectory()
        ? entry.name !== 'node_modules' && walk(path.join(dir, entry.name))
        : entry.name.endsWith('.d.ts'),
    );
  return walk(module.codeDir);
}

export function extensionInterfaceName(dataInterfaceName: string): string {
  const short = dataInterfaceName.split('\\').pop()!;
  return `${short.replace(/Interface$/, '')}ExtensionInterface`;
}

class ModuleFile {
  private readonly imports = new Map<string, { alias: string; name: string; from: string }>();
  readonly body: string[] = [];
  checks = 0;

  constructor(readonly file: string) {}

  /** A type-only import under an alias unique in this file. */
  importType(name: string, from: string, key = `${from}#${name}`): string {
    const found = this.imports.get(key);
    if (found) return found.alias;
    let alias = name;
    for (let i = 2; [...this.imports.values()].some((entry) => entry.alias === alias); i++) alias = `${name}_${i}`;
    this.imports.set(key, { alias, name, from });
    return alias;
  }

  text(header: string): string {
    const imports = [...this.imports.values()]
      .map(
        ({ alias, name, from }) => `import type { ${alias === name ? name : `${name} as ${alias}`} } from '${from}';`,
      )
      .sort();
    return [header, '', ...imports, '', ...this.body, 'export {};', ''].join('\n');
  }
}

export function compileDi(options: DiCompileOptions): DiCompileResult {
  const outDir = options.outDir ?? path.join(options.projectRoot, 'generated');
  const frameworkImport = options.frameworkImport ?? '#framework';
  // A module found in several folders (a fixture copied into modules/) is checked once, from the
  // first folder named: its checks go into one generated file either way.
  const modules: ModuleDefinition[] = [];
  for (const dir of options.modulesDirs) {
    const known = new Set(modules.map((m) => m.name));
    modules.push(...discoverModules([{ modulesDir: dir, codeDir: dir }]).filter((m) => !known.has(m.name)));
  }
  const unchecked: string[] = [];
  for (const source of options.packageSources ?? []) {
    const [module] = discoverModules([source]);
    const other = modules.find((m) => m.name === module!.name);
    // Start-up refuses two modules of one name, naming both places; the compiler checks the first.
    if (other || !module) continue;
    if (shipsTypes(module)) modules.push(module);
    else unchecked.push(`${module.name} (${moduleOrigin(module)}): the package ships no .d.ts types`);
  }
  const byName = new Map(modules.map((m) => [m.name, m]));
  const skipped = new Set<string>();
  const untyped: string[] = [];
  const frameworkExports = readFrameworkExports(options.projectRoot);
  const eventsFile = (m: ModuleDefinition) => typeFileOf(m, ['Api', 'events']);
  const eventDeclarers = modules.filter((m) => /export\s+interface\s+Events\b/.test(readIfExists(eventsFile(m))));

  const checksDir = path.join(outDir, 'di');
  rmSync(checksDir, { recursive: true, force: true });
  mkdirSync(checksDir, { recursive: true });
  const written: string[] = [];
  let checks = 0;

  for (const module of modules) {
    const out = new ModuleFile(path.join(checksDir, `${module.name}.ts`));
    const relative = (file: string) => {
      const spec = path
        .relative(checksDir, file)
        .split(path.sep)
        .join('/')
        .replace(/(\.d)?\.ts$/, '.js');
      return spec.startsWith('.') ? spec : `./${spec}`;
    };
    const fw = (name: string) => out.importType(name, frameworkImport);
    /** The TypeScript type a Magento-style name stands for, or undefined (left to start-up). */
    const typeOf = (name: string, virtualOf?: (n: string) => string | undefined): string | undefined => {
      const real = virtualOf?.(name) ?? name;
      const parts = real.replace(/^\\/, '').split('\\');
      const short = parts[parts.length - 1]!;
      if (parts[0] === 'Framework') {
        if (frameworkExports.has(short)) return fw(short);
        skipped.add(real);
        return undefined;
      }
      const owner = byName.get(`${parts[0]}_${parts[1]}`);
      const file = owner && parts.length >= 3 ? typeFileOf(owner, parts.slice(2)) : undefined;
      if (!file) {
        skipped.add(real);
        return undefined;
      }
      return out.importType(short, relative(file));
    };

    /** The TypeScript file of a module class name, if there is one. */
    const fileOf = (name: string): string | undefined => {
      const parts = name.replace(/^\\/, '').split('\\');
      const owner = byName.get(`${parts[0]}_${parts[1]}`);
      return owner && parts.length >= 3 ? typeFileOf(owner, parts.slice(2)) : undefined;
    };

    // di.xml: this module's own declarations, global and per area (each is checked as declared).
    for (const area of ['global', ...DI_AREAS] as const) {
      const file = moduleXmlFile(module, 'di.xml', area);
      if (!file) continue;
      const config = new DiConfig();
      mergeDiFile(config, parseXmlFile(file), file);
      const where = path.relative(options.projectRoot, file);
      const virtualOf = (name: string): string | undefined => {
        const seen = new Set<string>();
        let current = name;
        while (config.types.get(current)?.virtualOf && !seen.has(current)) {
          seen.add(current);
          current = config.types.get(current)!.virtualOf!;
        }
        return current === name ? undefined : current;
      };
      for (const [forName, preference] of config.preferences) {
        const contract = typeOf(forName);
        const implementation = typeOf(preference.type, virtualOf);
        if (!contract || !implementation) continue;
        out.body.push(
          `/** ${where}: <preference for="${forName}" type="${preference.type}"/>: the class must implement what it serves. */`,
          `export type Preference_${identifier(forName)} = ${fw('Satisfies')}<${contract}, ${implementation}>;`,
          '',
        );
        out.checks++;
      }
      for (const type of config.types.values()) {
        for (const plugin of type.plugins.values()) {
          if (plugin.type === undefined || plugin.disabled) continue;
          const target = typeOf(type.name, virtualOf);
          const pluginType = typeOf(plugin.type, virtualOf);
          if (!target || !pluginType) continue;
          const id = `${identifier(plugin.type)}_on_${identifier(type.name)}`;
          const pluginFile = fileOf(virtualOf(plugin.type) ?? plugin.type);
          const read = pluginFile
            ? pluginMethodNames(
                pluginFile,
                (virtualOf(plugin.type) ?? plugin.type).split('\\').pop()!,
                options.projectRoot,
              )
            : { methods: [], complete: false };
          const className = plugin.type.split('\\').pop()!;
          out.body.push(`/* ${where}: plugin "${plugin.name}" (${plugin.type}) on ${type.name} */`);
          // One line per plugin method: the message names the class, the method and the target method.
          for (const method of read.methods) {
            out.body.push(
              `/** ${className}::${method.name} must fit ${type.name}::${method.target}. */`,
              `export type Plugin_${id}_${method.name} = ${fw('Satisfies')}<{ ${method.name}: ${fw('PluginMethod')}<${target}, '${method.kind}', '${method.target}'> }, Pick<${pluginType}, '${method.name}'>>;`,
              `export type PluginSubject_${id}_${method.name} = ${fw('Satisfies')}<${fw('TypedSubject')}<${pluginType}['${method.name}'], '${className}::${method.name}: type its subject as ${type.name.replace(/\\/g, '\\\\')}, not unknown'>, 'typed'>;`,
            );
            out.checks += 2;
          }
          if (!read.complete) {
            // Methods it inherits from a class whose source was not found: checked all at once.
            const methods = `${fw('PluginMethodsOf')}<${pluginType}>`;
            const rest = read.methods.length
              ? `Omit<${methods}, ${read.methods.map((m) => `'${m.name}'`).join(' | ')}>`
              : methods;
            out.body.push(
              `/** ${className}'s other methods (a parent's source was not read): each beforeX/aroundX/afterX must fit ${type.name}::x, and x must exist. */`,
              `export type Plugin_${id} = ${fw('Satisfies')}<${fw('PluginOf')}<${target}>, ${rest}>;`,
              `export type PluginTargets_${id} = ${fw('Satisfies')}<${fw('MethodName')}<${target}>, ${fw('PluginTargetNames')}<${rest}>>;`,
            );
            out.checks += 2;
          }
          out.body.push('');
        }
      }
    }

    // events.xml: each observer against the data its event carries.
    const events = [...eventDeclarers].map((declarer) =>
      out.importType('Events', relative(eventsFile(declarer)!), `events:${declarer.name}`),
    );
    for (const area of EVENT_AREAS) {
      const file = moduleXmlFile(module, 'events.xml', area);
      if (!file) continue;
      const config = new EventConfig();
      mergeEventFile(config, parseXmlFile(file), file);
      const where = path.relative(options.projectRoot, file);
      for (const [eventName, observers] of config.events) {
        for (const observer of observers.values()) {
          if (!observer.instance || observer.disabled) continue;
          const observerType = typeOf(observer.instance);
          if (!observerType) continue;
          const data = `${fw('EventData')}<${events.length ? events.join(' & ') : '{}'}, '${eventName}'>`;
          out.body.push(
            `/** ${where}: observer "${observer.name}" (${observer.instance}) of "${eventName}": execute() must accept what the event carries. */`,
            `export type Observer_${identifier(observer.instance)}_of_${identifier(eventName)} = ${fw('Satisfies')}<${fw('ObserverOf')}<${data}>, ${observerType}>;`,
            '',
          );
          out.checks++;
        }
      }
    }

    // extension_attributes.xml: this module's attributes, added to the data interface's ...ExtensionInterface.
    const attributes = readExtensionAttributesConfig([module]);
    for (const [forName, byCode] of attributes.byInterface) {
      const parts = forName.split('\\');
      const owner = byName.get(`${parts[0]}_${parts[1]}`);
      const file = owner && typeFileOf(owner, parts.slice(2));
      const extensionName = extensionInterfaceName(forName);
      if (!file) {
        skipped.add(forName);
        continue;
      }
      if (!new RegExp(`export\\s+interface\\s+${extensionName}\\b`).test(readFileSync(file, 'utf8'))) {
        // The data interface may be another module's: its author adds the declaration; until then the attributes stay untyped.
        untyped.push(
          `${path.relative(options.projectRoot, [...byCode.values()][0]!.files[0]!)}: extension attributes for ${forName} stay untyped: ${path.relative(options.projectRoot, file)} exports no interface ${extensionName} ` +
            `(declare \`export interface ${extensionName} {}\` there and \`extension_attributes?: ${extensionName}\` on the data interface)`,
        );
        continue;
      }
      const members: string[] = [];
      for (const attribute of byCode.values()) {
        let type = attribute.scalar ? TS_SCALARS[attribute.type]! : typeOf(attribute.type);
        if (!type) type = 'Record<string, unknown>';
        members.push(`    ${attribute.code}?: ${attribute.list ? `${type}[]` : type} | null;`);
      }
      out.body.push(
        `/** ${path.relative(options.projectRoot, path.join(module.dir, 'etc', 'extension_attributes.xml'))}: extension attributes of ${forName}. */`,
        `declare module '${relative(file)}' {`,
        `  interface ${extensionName} {`,
        ...members,
        `  }`,
        `}`,
        '',
      );
    }

    if (out.body.length === 0) continue;
    const header = `// Generated by setup:di:compile from ${path.relative(options.projectRoot, module.dir)}/etc/*.xml; rewritten by every build. Do not edit.`;
    writeFileSync(out.file, out.text(header));
    written.push(out.file);
    checks += out.checks;
  }
  // For the run time: which classes implement which contracts (see implementedContracts.ts).
  const metadataDir = path.join(outDir, 'metadata');
  mkdirSync(metadataDir, { recursive: true });
  const implementsFile = path.join(metadataDir, 'implements.json');
  writeFileSync(implementsFile, `${JSON.stringify(implementedContracts(modules, options.projectRoot), null, 2)}\n`);
  written.push(implementsFile);
  return { files: written, checks, skipped: [...skipped].sort(), untyped, unchecked };
}

function identifier(name: string): string {
  return name.replace(/^\\/, '').replace(/[^A-Za-z0-9_$]+/g, '_');
}

function readIfExists(file: string | undefined): string {
  return file && existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** Names `app/framework/index.ts` exports (types or values), to import framework contracts by name. */
function readFrameworkExports(projectRoot: string): Set<string> {
  const text = readIfExists(path.join(projectRoot, 'app', 'framework', 'index.ts'));
  const names = new Set<string>();
  for (const block of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of block[1]!.split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      if (name) names.add(name);
    }
  }
  return names;
}

export type { ModuleDefinition };
