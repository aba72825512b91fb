/**
 * Just enough Markdown for the documentation tests: fenced code blocks, headings and their GitHub
 * anchors, links, table rows and prose, read line by line (the project's Markdown has no HTML
 * blocks and no indented code).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';

export interface Doc {
  /** Project-relative path, `/`-separated. */
  readonly file: string;
  readonly text: string;
}

export function readDoc(file: string): Doc {
  return { file, text: readFileSync(path.join(PROJECT_ROOT, file), 'utf8') };
}

/** README.md and every Markdown page under docs/, its folders too (the guide's reference pages are in docs/reference/). */
export function projectDocs(): Doc[] {
  const pages = (dir: string): string[] =>
    readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) =>
        entry.isDirectory()
          ? pages(`${dir}/${entry.name}`)
          : entry.name.endsWith('.md')
            ? [`${dir}/${entry.name}`]
            : [],
      );
  return [readDoc('README.md'), ...pages('docs').map(readDoc)];
}

export interface Line {
  readonly text: string;
  /** 1-based. */
  readonly number: number;
  /** null outside a fenced block, else the block's info string ('' when none). */
  readonly fence: string | null;
}

/** Every line, with whether it sits inside a fenced code block (the fences themselves are left out). */
export function lines(doc: Doc): Line[] {
  const out: Line[] = [];
  let fence: string | null = null;
  doc.text.split('\n').forEach((text, i) => {
    const marker = /^```(\S*)\s*$/.exec(text);
    if (marker) {
      fence = fence === null ? marker[1]! : null;
      return;
    }
    out.push({ text, number: i + 1, fence });
  });
  return out;
}

export function headings(doc: Doc): string[] {
  return lines(doc)
    .filter((l) => l.fence === null && /^#{1,6} /.test(l.text))
    .map((l) => l.text.replace(/^#+ /, '').trim());
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a page offers, duplicates numbered as GitHub numbers them. */
export function anchors(doc: Doc): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const heading of headings(doc)) {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

export interface Link {
  readonly text: string;
  readonly target: string;
  readonly line: number;
}

/** Inline links `[text](target)` outside code blocks and code spans. */
export function links(doc: Doc): Link[] {
  const out: Link[] = [];
  for (const line of lines(doc)) {
    if (line.fence !== null) continue;
    const withoutCode = line.text.replace(/`[^`]*`/g, (span) => (span.includes('](') ? '``' : span));
    for (const m of withoutCode.matchAll(/\[((?:[^\][]|\[[^\]]*\])*)\]\(([^)\s]+)\)/g)) {
      out.push({ text: m[1]!, target: m[2]!, line: line.number });
    }
  }
  return out;
}

export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** A relative link's target as a project-relative path and an anchor ('' when none). */
export function resolveLink(from: Doc, target: string): { file: string; anchor: string } {
  const [file, anchor = ''] = target.split('#') as [string, string?];
  if (file === '') return { file: from.file, anchor };
  return { file: path.posix.normalize(path.posix.join(path.posix.dirname(from.file), file)), anchor };
}
