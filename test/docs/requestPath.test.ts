/**
 * docs/request-path.md follows one request through the code folder by folder: each numbered step
 * of its walk is one folder (or a contract's folder with the module folder that serves it), so a
 * folder named in one step is named in no other, and every file or folder the walk names exists.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { lines, readDoc } from './support/markdown.js';

const WALK = '## A request, from the socket to SQL and back';

/** The numbered steps of the walk, each as its joined text. */
function steps(): string[] {
  const all = lines(readDoc('docs/request-path.md'));
  const start = all.findIndex((l) => l.text === WALK);
  expect(start, WALK).to.be.greaterThan(-1);
  const out: string[] = [];
  for (const line of all.slice(start + 1)) {
    if (line.text.startsWith('## ')) break;
    if (/^\d+\. /.test(line.text)) out.push(line.text);
    else if (out.length && /^ {3,}\S/.test(line.text)) out[out.length - 1] += ` ${line.text.trim()}`;
  }
  return out;
}

/** Project paths a step names in code spans: app/... or modules/..., a file or a folder ending in `/`. */
function paths(step: string): string[] {
  return [...step.matchAll(/`((?:app|modules)\/[\w./-]*)`/g)].map((m) => m[1]!);
}

const folderOf = (p: string) => (p.endsWith('/') ? p.slice(0, -1) : path.posix.dirname(p));

describe('docs/request-path.md: the request walk', () => {
  const walk = steps();

  it('should have its steps', () => {
    expect(walk.length).to.be.greaterThan(10);
  });

  it('should visit each folder in one step only', () => {
    const stepOf = new Map<string, number>();
    const twice: string[] = [];
    walk.forEach((step, i) => {
      for (const folder of new Set(paths(step).map(folderOf))) {
        const seen = stepOf.get(folder);
        if (seen !== undefined && seen !== i) twice.push(`${folder}: steps ${seen + 1} and ${i + 1}`);
        else stepOf.set(folder, i);
      }
    });
    expect(twice).to.deep.equal([]);
  });

  it('should name files and folders that exist', () => {
    const named = walk.flatMap(paths);
    expect(named.length).to.be.greaterThan(30);
    expect(named.filter((p) => !existsSync(path.join(PROJECT_ROOT, p)))).to.deep.equal([]);
  });
});
