/**
 * `layering/cycles` (on in eslint.config.js for app/, modules/ and the modules of test/fixtures/):
 * no import cycle between two files, nor between two folders, each reported on every import that
 * closes one, with the loop it closes:
 *   import cycle: app/framework/webapi/A.ts -> app/framework/webapi/B.ts -> app/framework/webapi/A.ts
 *   import cycle between folders: app/framework/webapi-async -> app/framework/bulk -> app/framework/webapi-async
 *     (app/framework/bulk/C.ts imports app/framework/webapi-async/D.ts)
 * A folder is the files directly in it (a subfolder is a folder of its own, so an import from a
 * subfolder back up into its parent closes a loop too, unless the two are declared a pair: see
 * `parentChildFolders` below). `import type` counts: a type in the wrong file is what starts most
 * loops. A loop is broken by moving the type or helper both sides need into a file (or folder)
 * below both.
 *
 * The framework's folders as they are, each importing only folders on the lines above it
 * (app/framework/index.ts, the public `#framework` API, imports from any):
 *   xml, exception, context, contract, logging, security, console, interception (the engine)
 *   stdlib (context: RefreshingValue's shared read runs outside any request)
 *   module (xml)
 *   config (module, xml)
 *   db (context, exception, module, xml)
 *   di (config, contract, interception, module, xml)
 *   event, extension (config, contract, di, module, xml)
 *   compile (config, event, extension, module, xml)
 *   api/search (contract, db, exception); bulk, store (context, contract); queue, setup (db, logging);
 *   shared, observability (context, logging)
 *   webapi (api, api/search, config, context, contract, db, exception, extension, logging,
 *           observability, store): the web layer, which never imports webapi-async
 *   webapi-async (bulk, config, context, contract, db, exception, extension, logging, observability,
 *                 queue, webapi): the async and bulk web API and the operation consumer
 * and above the framework: app/bootstrap, then app/cli/commands, app/cli, app/bin.
 *
 * A module is held to the same: its folders (Api, Model, Console, Setup, Model/Purge...) import each
 * other one way, Api/ at the bottom (a contract never imports its implementation), and another
 * module only through that module's Api/ (layering/imports); code two modules share has a home
 * below both (Dispensary_OutOfProcessExtensibility's Api/ for Webhooks and Eventing), not a
 * re-export in one module's Api/ of its own Model/.
 *
 * Options:
 *   - `roots`: the project-relative folders whose files form the graph (imports leaving them are
 *     not followed);
 *   - `parentChildFolders`: pairs [parent, child] of project-relative folders, the child inside the
 *     parent, declared to be one piece split in two for reading: the pair counts as one folder, so
 *     the two may import each other; a loop through any other folder, and any loop between two
 *     files, is still reported. For a subfolder that is a part of its parent, not a layer below it:
 *       parentChildFolders: [['modules/Dispensary/Integration/Model', 'modules/Dispensary/Integration/Model/Oauth']]
 *     (OAuth's request verifier reads the token tables the parent's TokenGrants owns, and the
 *     parent's TokenAuthorization calls the verifier). A pair whose child is not inside its parent
 *     is refused (a mistake in the config, not a pair);
 *   - `allowedCycles`: lists of files that may still import each other in a loop, each waiting for
 *     a change of its own (a loop through any other file is still reported).
 *
 * Its own code rather than eslint-plugin-import-x's no-cycle: that finds file cycles only (the
 * folder ones need this graph anyway) and brings a resolver and ten more packages. Files other
 * than the one being linted are read from disk (their imports cached by modification time, checked
 * again at most once a second: a file saved within that second may count as it was until then), so
 * `eslint --cache` can miss a loop closed by a file it did not lint again; plain `npm run lint`
 * does not.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = /\.(ts|mts|cts)$/;

const toRelative = (absolute) => path.relative(ROOT, absolute).split(path.sep).join('/');
const under = (relative, folder) => relative === folder || relative.startsWith(`${folder}/`);

/**
 * A file's folder in the folder graph: its own, but the files directly in a declared child folder
 * count as its parent's, so the pair is one node (the child's own subfolders stay folders of their own).
 */
function folderOfWith(parentChildFolders) {
  for (const [parent, child] of parentChildFolders) {
    if (!child.startsWith(`${parent}/`))
      throw new Error(`layering/cycles: parentChildFolders: "${child}" is not a folder inside "${parent}"`);
  }
  return (relative) => {
    const folder = path.posix.dirname(relative);
    const pair = parentChildFolders.find(([, child]) => folder === child);
    return pair ? pair[0] : folder;
  };
}

/** The project-relative source file a relative import specifier lands on, or null. */
function resolve(fromRelative, specifier) {
  // `#modules/...` (package.json imports) is modules/... by another spelling.
  const modules = specifier.startsWith('#modules/');
  if (!specifier.startsWith('.') && !modules) return null;
  const absolute = modules
    ? path.resolve(ROOT, specifier.slice(1))
    : path.resolve(ROOT, path.dirname(fromRelative), specifier);
  const candidates = [absolute, absolute.replace(/\.(m|c)?js$/, '.$1ts'), path.join(absolute, 'index.ts')];
  for (const candidate of candidates) {
    try {
      if (SOURCE.test(candidate) && statSync(candidate).isFile()) return toRelative(candidate);
    } catch {
      // not this one
    }
  }
  return null;
}

/**
 * How long a file's cached imports, or a folder's cached listing, are used without a stat: every
 * linted file needs the whole graph, and checking every file of it again for each one was most of
 * the rule's time in a whole-tree lint (a stat per file per linted file: 200,000 for 450 files).
 * So a file saved less than this before another file is linted may count as it was (its own lint
 * always reads it as it is).
 */
const RECHECK_AFTER_MS = 1000;
const fresh = (entry) => Date.now() - entry.checkedAt < RECHECK_AFTER_MS;

/** Project-relative path -> { mtimeMs, targets, checkedAt }: the imports of files on disk, read again once changed. */
const importsOnDisk = new Map();

function diskImports(relative) {
  const cached = importsOnDisk.get(relative);
  if (cached && fresh(cached)) return cached.targets;
  const absolute = path.join(ROOT, relative);
  const { mtimeMs } = statSync(absolute);
  if (cached && cached.mtimeMs === mtimeMs) {
    cached.checkedAt = Date.now();
    return cached.targets;
  }
  const { importedFiles } = ts.preProcessFile(readFileSync(absolute, 'utf8'), true, true);
  const targets = [...new Set(importedFiles.map((imported) => resolve(relative, imported.fileName)).filter(Boolean))];
  importsOnDisk.set(relative, { mtimeMs, targets, checkedAt: Date.now() });
  return targets;
}

/**
 * Project-relative folder -> { folders: [absolute folder, mtimeMs][], files }: its source files,
 * listed again only when one of its folders changed (a folder's mtime changes when an entry is
 * added, removed or renamed in it). Every linted file needs the whole graph: listing the tree
 * again for each was most of a whole-tree lint's time.
 */
const listings = new Map();

function listingValid(listing) {
  if (fresh(listing)) return true;
  const valid = listing.folders.every(
    ([folder, mtimeMs]) => statSync(folder, { throwIfNoEntry: false })?.mtimeMs === mtimeMs,
  );
  if (valid) listing.checkedAt = Date.now();
  return valid;
}

function sourceFilesUnder(folder) {
  const cached = listings.get(folder);
  if (cached && listingValid(cached)) return cached.files;
  const folders = [];
  const files = [];
  const walk = (relative) => {
    const absolute = path.join(ROOT, relative);
    let entries;
    try {
      // The mtime before the entries: a change while they are read shows next time.
      folders.push([absolute, statSync(absolute).mtimeMs]);
      entries = readdirSync(absolute, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (SOURCE.test(child) && !child.endsWith('.d.ts')) files.push(child);
    }
  };
  walk(folder);
  // A root that does not exist has no files; its listing is checked again next time.
  if (folders.length === 0) return [];
  listings.set(folder, { folders, files, checkedAt: Date.now() });
  return files;
}

/** The shortest path of `edges` (node -> sorted targets) from `start` to `goal`, both included; null if none. */
function shortestPath(edges, start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    if (node === goal) {
      const found = [];
      for (let at = goal; at !== null; at = previous.get(at)) found.unshift(at);
      return found;
    }
    for (const next of edges.get(node) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return null;
}

/**
 * The import graph of the files under `roots`, `file` (project-relative) with the imports
 * `ownTargets` it has as linted rather than as saved: file -> files, and folder -> folders with one
 * file import that makes each folder edge.
 */
function importGraph(roots, file, ownTargets, folderOf) {
  const files = new Set(roots.flatMap(sourceFilesUnder));
  files.add(file);
  const inRoots = (target) => roots.some((root) => under(target, root));
  const fileEdges = new Map();
  const folderEdges = new Map();
  const witnesses = new Map();
  for (const from of [...files].sort()) {
    const targets = (from === file ? ownTargets : diskImports(from)).filter(inRoots).sort();
    fileEdges.set(from, targets);
    for (const to of targets) {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (a === b) continue;
      if (!folderEdges.has(a)) folderEdges.set(a, new Set());
      folderEdges.get(a).add(b);
      if (!witnesses.has(`${a} -> ${b}`)) witnesses.set(`${a} -> ${b}`, `${from} imports ${to}`);
    }
  }
  for (const [folder, targets] of folderEdges) folderEdges.set(folder, [...targets].sort());
  return { fileEdges, folderEdges, witnesses };
}

const cyclesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'no import cycle between files or between folders' },
    schema: [
      {
        type: 'object',
        properties: {
          roots: { type: 'array', items: { type: 'string' } },
          parentChildFolders: {
            type: 'array',
            items: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
          },
          allowedCycles: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { roots = ['app'], parentChildFolders = [], allowedCycles = [] } = context.options[0] ?? {};
    const folderOf = folderOfWith(parentChildFolders);
    const file = toRelative(context.filename);
    if (!SOURCE.test(file) || !roots.some((root) => under(file, root))) return {};
    const imports = [];
    const collect = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolve(file, source.value);
      if (target && target !== file) imports.push({ node: source, target });
    };
    const allowed = (loop) => allowedCycles.some((set) => loop.every((member) => set.includes(member)));
    return {
      ImportDeclaration: collect,
      ExportNamedDeclaration: collect,
      ExportAllDeclaration: collect,
      ImportExpression: collect,
      'Program:exit'() {
        if (imports.length === 0) return;
        const graph = importGraph(roots, file, [...new Set(imports.map((i) => i.target))], folderOf);
        const reported = new Set();
        for (const { node, target } of imports) {
          if (reported.has(target) || !graph.fileEdges.has(target)) continue;
          reported.add(target);
          const back = shortestPath(graph.fileEdges, target, file);
          if (back && !allowed([file, ...back])) {
            context.report({ node, message: `import cycle: ${[file, ...back].join(' -> ')}` });
            continue;
          }
          const [from, to] = [folderOf(file), folderOf(target)];
          const up = from === to ? null : shortestPath(graph.folderEdges, to, from);
          if (!up) continue;
          const through = up.slice(1).map((folder, i) => graph.witnesses.get(`${up[i]} -> ${folder}`));
          const loop = [from, ...up].join(' -> ');
          context.report({ node, message: `import cycle between folders: ${loop} (${through.join('; ')})` });
        }
      },
    };
  },
};

export { cyclesRule };
