/**
 * Which classes implement which contracts, read from the TypeScript source (`class X implements
 * FooInterface`), for the run time: TypeScript's `implements` vanishes, and without this a class
 * that implements a contract without being its `<preference>` would have to say so again with
 * `@implementsContract` for the contract's plugins to wrap it. Written by setup:di:compile to
 * generated/metadata/implements.json as Magento name -> contract names (parents' included).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ModuleDefinition } from '../module/ModuleLoader.js';
import { ts } from './typescript.js';

interface ClassFacts {
  readonly implements: string[];
  readonly extends?: string;
}

/** `Framework\...` contract names by their TypeScript name, read from the framework's defineContract calls. */
function frameworkContracts(projectRoot: string): Map<string, string> {
  const names = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const file = path.join(dir, entry);
      if (statSync(file).isDirectory()) walk(file);
      else if (file.endsWith('.ts')) {
        for (const match of readFileSync(file, 'utf8').matchAll(/defineContract<(\w+)>\(\s*'([^']+)'/g))
          names.set(match[1]!, match[2]!.replace(/\\\\/g, '\\'));
      }
    }
  };
  const dir = path.join(projectRoot, 'app', 'framework');
  if (existsSync(dir)) walk(dir);
  return names;
}

/** A module's TypeScript sources; for a module package, the `.d.ts` files it ships (`declaration` true). */
function tsFiles(dir: string, declarations = false): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory())
      return ['migrations', 'etc', 'node_modules', 'Test'].includes(entry) ? [] : tsFiles(file, declarations);
    return file.endsWith('.d.ts') === declarations && file.endsWith('.ts') ? [file] : [];
  });
}

/** Where a module's types are read from: its folder, or a package's compiled folder. */
function typesRoot(module: ModuleDefinition): string {
  return module.package ? module.codeDir : module.dir;
}

export function implementedContracts(
  modules: readonly ModuleDefinition[],
  projectRoot: string,
): Record<string, string[]> {
  const framework = frameworkContracts(projectRoot);
  /** A module file -> its Magento name, when the export named like the file is what is meant. */
  const magentoName = (file: string, exportName: string): string | undefined => {
    for (const module of modules) {
      const relative = path.relative(typesRoot(module), file);
      if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
      const parts = relative.replace(/(\.d)?\.ts$/, '').split(path.sep);
      return parts[parts.length - 1] === exportName ? [module.vendor, module.module, ...parts].join('\\') : undefined;
    }
    return undefined;
  };
  const resolveImport = (from: string, specifier: string, importedName: string): string | undefined => {
    // A module package names the runtime by its package name (docs/module-packages.md).
    if (specifier === '#framework' || specifier === 'dispensary-runtime/framework') return framework.get(importedName);
    const ext = from.endsWith('.d.ts') ? '.d.ts' : '.ts';
    let file: string;
    if (specifier.startsWith('#modules/') || specifier.startsWith('dispensary-runtime/modules/'))
      file = path
        .join(projectRoot, 'modules', specifier.replace(/^(#|dispensary-runtime\/)modules\//, ''))
        .replace(/\.js$/, '.ts');
    else if (specifier.startsWith('.')) file = path.resolve(path.dirname(from), specifier).replace(/\.js$/, ext);
    else return undefined;
    return magentoName(file, importedName);
  };

  const facts = new Map<string, ClassFacts>();
  for (const module of modules) {
    for (const file of tsFiles(typesRoot(module), module.package !== undefined)) {
      const text = readFileSync(file, 'utf8');
      // A file without either word has no heritage clause, and so adds nothing to the result.
      if (!/\b(implements|extends)\b/.test(text)) continue;
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false);
      const imported = new Map<string, string | undefined>();
      for (const statement of source.statements) {
        if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
        const bindings = statement.importClause?.namedBindings;
        if (!bindings || !ts.isNamedImports(bindings)) continue;
        for (const element of bindings.elements) {
          const importedName = (element.propertyName ?? element.name).text;
          imported.set(element.name.text, resolveImport(file, statement.moduleSpecifier.text, importedName));
        }
      }
      for (const statement of source.statements) {
        if (!ts.isClassDeclaration(statement) || !statement.name) continue;
        const className = magentoName(file, statement.name.text);
        if (!className) continue;
        const local = (name: string) => imported.get(name) ?? magentoName(file, name);
        const own: ClassFacts = { implements: [] };
        let parent: string | undefined;
        for (const clause of statement.heritageClauses ?? []) {
          for (const type of clause.types) {
            if (!ts.isIdentifier(type.expression)) continue;
            const name = local(type.expression.text);
            if (!name) continue;
            if (clause.token === ts.SyntaxKind.ImplementsKeyword) own.implements.push(name);
            else parent = name;
          }
        }
        facts.set(className, parent ? { ...own, extends: parent } : own);
      }
    }
  }
  const result: Record<string, string[]> = {};
  for (const className of [...facts.keys()].sort()) {
    const names: string[] = [];
    const seen = new Set<string>();
    for (
      let current: string | undefined = className;
      current && !seen.has(current);
      current = facts.get(current)?.extends
    ) {
      seen.add(current);
      for (const name of facts.get(current)?.implements ?? []) if (!names.includes(name)) names.push(name);
    }
    if (names.length) result[className] = names;
  }
  return result;
}
