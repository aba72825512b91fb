/**
 * The `beforeX/aroundX/afterX` methods a plugin class declares, read from its TypeScript source
 * (its own and its parents' when their files are found), so setup:di:compile can check each
 * method on a line of its own: the compiler's message then names the class, the method and the
 * target method. `complete` is false when a parent class could not be read.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type TypeScript from 'typescript';
import { ts } from './typescript.js';

const PLUGIN_METHOD = /^(before|around|after)([A-Z_$].*)$/;

export interface PluginMethod {
  readonly name: string;
  readonly kind: 'before' | 'around' | 'after';
  /** The target method: `afterAddItems` -> `addItems`, as the runtime reads it (PluginList.ts). */
  readonly target: string;
}

export function pluginMethodNames(
  file: string,
  className: string,
  projectRoot: string,
  seen = new Set<string>(),
): { methods: PluginMethod[]; complete: boolean } {
  const key = `${file}#${className}`;
  if (seen.has(key) || !existsSync(file)) return { methods: [], complete: false };
  seen.add(key);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const declaration = source.statements.find(
    (s): s is TypeScript.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className,
  );
  if (!declaration) return { methods: [], complete: false };
  const methods: PluginMethod[] = [];
  for (const member of declaration.members) {
    if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
    const modifiers = ts.getModifiers(member) ?? [];
    if (
      modifiers.some(
        (m) =>
          m.kind === ts.SyntaxKind.PrivateKeyword ||
          m.kind === ts.SyntaxKind.ProtectedKeyword ||
          m.kind === ts.SyntaxKind.StaticKeyword,
      )
    )
      continue;
    const match = PLUGIN_METHOD.exec(member.name.text);
    if (!match) continue;
    methods.push({
      name: member.name.text,
      kind: match[1] as PluginMethod['kind'],
      target: match[2]!.charAt(0).toLowerCase() + match[2]!.slice(1),
    });
  }
  const parent = declaration.heritageClauses?.find((c) => c.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]
    ?.expression;
  if (!parent) return { methods, complete: true };
  if (!ts.isIdentifier(parent)) return { methods, complete: false };
  // The parent: a class of the same file, or an import by relative path or `#modules/...`.
  let parentFile = file;
  let parentName = parent.text;
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    const element =
      bindings && ts.isNamedImports(bindings) ? bindings.elements.find((e) => e.name.text === parent.text) : undefined;
    if (!element) continue;
    // A module package's .d.ts names another module's Api as `dispensary-runtime/modules/...`.
    const specifier = statement.moduleSpecifier.text.replace(/^dispensary-runtime\/modules\//, '#modules/');
    if (specifier.startsWith('#modules/'))
      parentFile = path.join(projectRoot, 'modules', specifier.slice('#modules/'.length)).replace(/\.js$/, '.ts');
    else if (specifier.startsWith('.'))
      parentFile = path
        .resolve(path.dirname(file), specifier)
        .replace(/\.js$/, file.endsWith('.d.ts') ? '.d.ts' : '.ts');
    else return { methods, complete: false };
    parentName = (element.propertyName ?? element.name).text;
  }
  const inherited = pluginMethodNames(parentFile, parentName, projectRoot, seen);
  const own = new Set(methods.map((m) => m.name));
  return { methods: [...methods, ...inherited.methods.filter((m) => !own.has(m.name))], complete: inherited.complete };
}
