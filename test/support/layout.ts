/**
 * The layout rule of the test suite (docs/testing.md), as functions over a list of files so that
 * test/layout.test.ts can check the real tree and planted violations alike.
 *
 * * test/framework/<dir>/<Name>[.<aspect>][.http].test.ts is about app/framework/<dir>/<Name>.ts,
 *   or app/<dir>/<Name>.ts for app/bootstrap, app/bin and app/cli.
 * * test/modules/<Module>/<path>/<Name>[.<aspect>].test.ts is a unit test of
 *   modules/<Vendor>/<Module>/<path>/<Name>.ts; an HTTP suite, named by feature, is
 *   test/modules/<Module>/<feature>.http.test.ts (it may sit in a folder of the module too).
 * * In both folders a test is named `.http.test.ts` exactly when it goes through HTTP: it sends
 *   requests in-process (`t.request()`), imports supertest, calls fetch() or node:http's request/get, itself or through a helper it imports
 *   from another test file (followed name by name, so a helper module may hold both kinds).
 * * test/magento (ported Magento api-functional tests), test/abuse, test/guide, test/bench, test/docs and
 *   test/packages (module packages installed with npm, end to end) are
 *   folders of their own; test/cluster holds scenarios (`npm run test:cluster`), no `*.test.ts`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What the rule needs of the tree: whether a file exists, and a file's text (null: no such file). */
export interface Tree {
  exists(file: string): boolean;
  read(file: string): string | null;
  /** The vendors under modules/ (Dispensary, Acme). */
  vendors(): readonly string[];
}

export function diskTree(root: string, vendors: readonly string[]): Tree {
  return {
    exists: (file) => existsSync(path.join(root, file)),
    read: (file) => (existsSync(path.join(root, file)) ? readFileSync(path.join(root, file), 'utf8') : null),
    vendors: () => vendors,
  };
}

/** supertest, fetch, node:http, or a TestApp's in-process requests (`t.request().get(...)`). */
const HTTP_MARKERS = /from 'supertest'|\bfetch\(|\bhttp\.(?:request|get)\(|\.request\(/;
/** The app/ folders tested under test/framework/<folder> rather than test/framework/framework/<folder>. */
const APP_FOLDERS = ['bootstrap', 'bin', 'cli'];
const OWN_FOLDERS = [
  'test/magento/',
  'test/abuse/',
  'test/guide/',
  'test/bench/',
  'test/docs/',
  'test/support/',
  'test/packages/',
];

/** Where a declaration of `name` starts at the top level of `text`, and its text up to the next one. */
function declaration(text: string, name: string): string | null {
  const lines = text.split('\n');
  const start = new RegExp(
    `^(?:export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:abstract\\s+)?(?:async\\s+)?` +
      `(?:function\\*?|class|const|let|var|interface|type|enum)\\s+${name.replace(/\$/g, '\\$')}\\b`,
  );
  const at = lines.findIndex((line) => start.test(line));
  if (at < 0) return null;
  let end = at + 1;
  while (end < lines.length && !/^[A-Za-z@/]/.test(lines[end]!)) end++;
  return lines.slice(at, end).join('\n');
}

interface Import {
  readonly from: string;
  /** Names imported (under their own names), or null for a default or namespace import: the whole module. */
  readonly names: readonly string[] | null;
}

/** The relative imports of a test file that land in another file under test/ (app/ and modules/ are not helpers). */
function testImports(file: string, text: string, tree: Tree): Map<string, Import> {
  const byLocalName = new Map<string, Import>();
  const pattern = /^import\s+(type\s+)?([^'";]*?)\s+from\s+'(\.[^']+)'/gm;
  for (const match of text.matchAll(pattern)) {
    if (match[1]) continue; // a type import runs nothing
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[3]!.replace(/\.js$/, '.ts')));
    if (!target.startsWith('test/') || !tree.exists(target)) continue;
    const clause = match[2]!;
    const braces = /\{([^}]*)\}/.exec(clause);
    for (const part of braces ? braces[1]!.split(',') : []) {
      if (/^\s*type\s/.test(part)) continue;
      const [imported, local] = part.trim().split(/\s+as\s+/);
      if (imported) byLocalName.set((local ?? imported).trim(), { from: target, names: [imported.trim()] });
    }
    const outside = clause
      .replace(/\{[^}]*\}/, '')
      .replace(/,/g, ' ')
      .trim();
    for (const local of outside.split(/\s+/).filter((w) => w && w !== '*' && w !== 'as')) {
      byLocalName.set(local, { from: target, names: null });
    }
  }
  return byLocalName;
}

/** The local names of what a file imports from supertest (not type imports). */
function supertestNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/^import\s+(?!type\s)([^'";]*?)\s+from\s+'supertest'/gm)) {
    for (const word of match[1]!.replace(/\btype\s+\w+/g, '').match(/[A-Za-z_$][\w$]*/g) ?? [])
      if (word !== 'as') names.add(word);
  }
  return names;
}

/**
 * Whether the file (names null) or the named top-level declarations of it go through HTTP: a
 * marker in their text, or a name they use that is imported from a test helper, or declared at the
 * top level of the same file, that does.
 */
export function speaksHttp(
  file: string,
  tree: Tree,
  names: readonly string[] | null = null,
  seen = new Set<string>(),
): boolean {
  const text = tree.read(file);
  if (text === null) return false;
  const imports = testImports(file, text, tree);
  const supertest = supertestNames(text);
  const pending =
    names === null
      ? [{ key: `${file}#*`, body: text }]
      : names.map((name) => ({ key: `${file}#${name}`, body: declaration(text, name) }));
  for (const { key, body } of pending) {
    if (seen.has(key) || body === null) continue;
    seen.add(key);
    if (HTTP_MARKERS.test(body)) return true;
    const used = new Set(body.match(/[A-Za-z_$][\w$]*/g) ?? []);
    if (names !== null && [...used].some((name) => supertest.has(name))) return true;
    for (const name of used) {
      const imported = imports.get(name);
      if (imported && speaksHttp(imported.from, tree, imported.names, seen)) return true;
      if (
        names !== null &&
        !names.includes(name) &&
        declaration(text, name) !== null &&
        speaksHttp(file, tree, [name], seen)
      )
        return true;
    }
  }
  return false;
}

/** `Name` of `Name.aspect.http.test.ts`, `Name.http.test.ts`, `Name.test.ts`. */
function subjectName(base: string): string {
  return base.replace(/\.test\.ts$/, '').split('.')[0]!;
}

/** The sources a test file under test/framework or test/modules may be about (one of them must exist). */
export function mirroredSources(file: string, tree: Tree): string[] {
  const dir = path.posix.dirname(file);
  const name = `${subjectName(path.posix.basename(file))}.ts`;
  if (file.startsWith('test/framework/')) {
    const below = dir.slice('test/framework'.length).replace(/^\//, '');
    const top = below.split('/')[0]!;
    return [
      path.posix.join('app/framework', below, name),
      ...(APP_FOLDERS.includes(top) ? [path.posix.join('app', below, name)] : []),
    ];
  }
  const [, , moduleName, ...rest] = dir.split('/');
  return tree.vendors().map((vendor) => path.posix.join('modules', vendor, moduleName!, ...rest, name));
}

/** Every way the files break the layout rule, one line each (empty: none). */
export function layoutViolations(files: readonly string[], tree: Tree): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (!file.endsWith('.test.ts') || file.startsWith('test/fixtures/')) continue;
    const http = file.endsWith('.http.test.ts');
    if (file.startsWith('test/cluster/')) {
      problems.push(`${file}: test/cluster holds scenarios (*.scenario.ts, npm run test:cluster), not tests`);
      continue;
    }
    const framework = file.startsWith('test/framework/');
    const modules = file.startsWith('test/modules/');
    if (!framework && !modules) {
      const topLevel = path.posix.dirname(file) === 'test';
      if (!topLevel && !OWN_FOLDERS.some((folder) => file.startsWith(folder))) {
        problems.push(
          `${file}: not in a test folder of docs/testing.md (framework, modules, magento, abuse, guide, bench, docs, packages)`,
        );
      }
      continue;
    }
    const speaks = speaksHttp(file, tree);
    if (http && !speaks)
      problems.push(`${file}: named .http.test.ts but sends no HTTP request (t.request(), supertest, fetch)`);
    if (!http && speaks)
      problems.push(`${file}: goes through HTTP (t.request(), supertest, fetch) but is not named .http.test.ts`);
    if (modules && file.split('/').length < 4) problems.push(`${file}: a module's tests go in test/modules/<Module>/`);
    else if (framework || !http) {
      const sources = mirroredSources(file, tree);
      if (!sources.some((source) => tree.exists(source)))
        problems.push(`${file}: mirrors no source (looked for ${sources.join(', ')})`);
    }
  }
  return problems;
}
