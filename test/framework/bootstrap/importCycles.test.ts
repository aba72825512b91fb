/**
 * The start-up code imports in one direction: Application.ts imports its phases and the HTTP app,
 * none of them imports Application.ts back (each takes a narrow interface of what it needs). Read
 * from the TypeScript sources, type-only imports included, as TypeScript's own pre-processor sees them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../../app/bootstrap/paths.js';

const START_UP = ['app/bootstrap', 'app/bin'];

/** The project files a source imports by relative path (project-relative, `/`-separated). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path.join(PROJECT_ROOT, file), 'utf8'), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => path.posix.join(path.posix.dirname(file), name.replace(/\.js$/, '.ts')))
    .filter((target) => existsSync(path.join(PROJECT_ROOT, target)));
}

/**
 * The files that import each other round a loop, one group each (strongly connected components,
 * Tarjan's algorithm), among the files reached from `roots`; a file on no loop is in no group.
 */
function importLoops(roots: readonly string[], imports: (file: string) => readonly string[] = importsOf): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    const targets = imports(file);
    for (const target of targets) {
      if (!index.has(target)) visit(target);
      if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, low.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1 || targets.includes(file)) loops.push(group.sort());
  };
  for (const root of roots) if (!index.has(root)) visit(root);
  return loops;
}

function sources(folder: string): string[] {
  return readdirSync(path.join(PROJECT_ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry.endsWith('.ts'))
    .map((entry) => path.posix.join(folder, entry.split(path.sep).join('/')));
}

describe('start-up imports (app/bootstrap, app/bin)', () => {
  it('should form no import cycle through a start-up file', () => {
    const throughStartUp = importLoops(START_UP.flatMap(sources)).filter((loop) =>
      loop.some((file) => START_UP.some((folder) => file.startsWith(`${folder}/`))),
    );
    expect(throughStartUp.map((loop) => loop.join(' <-> '))).to.deep.equal([]);
  });

  it('should find every loop, and only loops (the check itself)', () => {
    // a -> w -> a is found first; b reaches that loop only through w, which is done by then.
    const graph = new Map([
      ['a.ts', ['w.ts', 'b.ts', 'x.ts']],
      ['w.ts', ['a.ts']],
      ['b.ts', ['w.ts']],
      ['x.ts', ['y.ts']],
      ['y.ts', ['y.ts']],
    ]);
    expect(importLoops(['a.ts'], (file) => graph.get(file) ?? [])).to.deep.equal([['y.ts'], ['a.ts', 'b.ts', 'w.ts']]);
  });
});
