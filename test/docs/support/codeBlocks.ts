/**
 * The TypeScript and JavaScript blocks of the project's Markdown, type-checked with the compiler
 * API against the project itself (its tsconfig, `#framework`, `#modules/...`, generated/).
 *
 * Each block is compiled as a file of its own, by default beside its Markdown file
 * (`docs/x.md`'s second block is `docs/x.md.block2.ts`), so relative imports resolve from there.
 * An HTML comment on the line before the fence says otherwise:
 *
 * * `<!-- include: path -->`: the block is that file of the project, byte for byte (the guide's
 *   mechanism, test/guide/guide.test.ts), and compiles as it;
 * * `<!-- file: path -->`: the block compiles as if it were the file at `path` (a file the reader
 *   is told to write, e.g. `modules/Acme/Limits/Plugin/ItemLimits.ts`);
 * * `<!-- fragment: why -->`: the block is not a whole file (one entry of an object, say) and is
 *   not compiled; the reason is required.
 *
 * TypeScript blocks are type-checked (strict, as the project); JavaScript blocks are checked for
 * syntax only (they are snippets for other programs, e.g. a webhook receiver).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { readDoc, type Doc } from './markdown.js';

const TS_LANGS = new Set(['ts', 'typescript', 'tsx']);
const JS_LANGS = new Set(['js', 'javascript', 'mjs', 'cjs']);
/** Folders that hold no Markdown of the project's own. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'generated', 'var', 'coverage']);

export interface CodeBlock {
  readonly doc: string;
  /** 1-based line of the block's first code line in the Markdown file. */
  readonly line: number;
  readonly lang: 'ts' | 'js';
  readonly body: string;
  /** Project-relative path the block compiles as. */
  readonly file: string;
  /** The comment before the fence, if any. */
  readonly marker: 'include' | 'file' | 'fragment' | null;
  /** Set when the block is marked `<!-- fragment: why -->`: it is not compiled. */
  readonly fragment: string | null;
}

/** Every Markdown file of the project (README.md, docs/, BENCHMARKS*, module READMEs...), sorted. */
export function markdownFiles(dir = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(PROJECT_ROOT, dir)).sort()) {
    if (entry.startsWith('.') || SKIPPED_DIRS.has(entry)) continue;
    const relative = dir ? `${dir}/${entry}` : entry;
    if (statSync(path.join(PROJECT_ROOT, relative)).isDirectory()) out.push(...markdownFiles(relative));
    else if (entry.endsWith('.md')) out.push(relative);
  }
  return out;
}

export function projectMarkdown(): Doc[] {
  return markdownFiles().map(readDoc);
}

/** The TypeScript and JavaScript blocks of a Markdown file, with where each compiles. */
export function codeBlocks(doc: Doc): CodeBlock[] {
  const out: CodeBlock[] = [];
  const lines = doc.text.split('\n');
  let n = 0;
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    const info = open[1]!.toLowerCase();
    const lang = TS_LANGS.has(info) ? 'ts' : JS_LANGS.has(info) ? 'js' : null;
    if (lang) {
      n++;
      const marker = /^<!-- (include|file|fragment): ?(.*?) ?-->$/.exec(i > 0 ? lines[i - 1]!.trim() : '');
      const kind = (marker?.[1] ?? null) as CodeBlock['marker'];
      const value = marker?.[2] ?? '';
      out.push({
        doc: doc.file,
        line: i + 2,
        lang,
        body: lines.slice(i + 1, end).join('\n') + '\n',
        file:
          kind === 'include' || kind === 'file'
            ? value
            : `${doc.file}.block${n}.${lang === 'ts' ? 'ts' : info === 'cjs' ? 'cjs' : 'js'}`,
        marker: kind,
        fragment: kind === 'fragment' ? value : null,
      });
    }
    i = end;
  }
  return out;
}

/** The project's compiler options (tsconfig.json), for checking only. */
function compilerOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(PROJECT_ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json could not be read');
  return {
    ...parsed.options,
    noEmit: true,
    incremental: false,
    tsBuildInfoFile: undefined,
    allowJs: true,
    checkJs: false,
    // Each block is a module of its own, even without import/export.
    moduleDetection: ts.ModuleDetectionKind.Force,
  };
}

/** The generated/ files (extension attribute augmentations): what `tsc -p` would also see. */
function generatedFiles(): string[] {
  const root = path.join(PROJECT_ROOT, 'generated');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => {
      const full = path.join(dir, entry);
      return statSync(full).isDirectory() ? walk(full) : entry.endsWith('.ts') ? [full] : [];
    });
  try {
    return walk(root);
  } catch {
    return [];
  }
}

/**
 * Compiles every block that is not a fragment, in one program, and answers one line per error:
 * `doc.md:line: TSnnnn message`, the line being the Markdown file's.
 */
export function checkBlocks(blocks: readonly CodeBlock[]): string[] {
  const compiled = blocks.filter((b) => b.fragment === null);
  const byPath = new Map(compiled.map((b) => [path.join(PROJECT_ROOT, b.file), b]));
  const options = compilerOptions();
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => byPath.has(path.resolve(name)) || fileExists.call(host, name);
  host.readFile = (name) => byPath.get(path.resolve(name))?.body ?? readFile.call(host, name);
  host.getSourceFile = (name, language, onError, shouldCreate) => {
    const block = byPath.get(path.resolve(name));
    return block
      ? ts.createSourceFile(name, block.body, language, true)
      : getSourceFile.call(host, name, language, onError, shouldCreate);
  };
  const program = ts.createProgram([...byPath.keys(), ...generatedFiles()], options, host);
  const out: string[] = [];
  for (const [file, block] of byPath) {
    const source = program.getSourceFile(file);
    if (!source) {
      out.push(`${block.doc}:${block.line}: not compiled (${block.file})`);
      continue;
    }
    const diagnostics =
      block.lang === 'ts'
        ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
        : [...program.getSyntacticDiagnostics(source)];
    for (const d of diagnostics) {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
      out.push(`${block.doc}:${block.line + line}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    }
    if (block.lang === 'ts') {
      for (const { node, method } of untypedPluginSubjects(source, program.getTypeChecker()))
        out.push(
          `${block.doc}:${block.line + source.getLineAndCharacterOfPosition(node.getStart()).line}: ` +
            `plugin method ${method} types its subject as unknown or any (setup:di:compile refuses it: type it with the contract)`,
        );
    }
  }
  return out;
}

/**
 * Plugin methods (`beforeX`, `aroundX`, `afterX` of a class) whose first parameter, the subject,
 * is `unknown` or `any`: tsc alone accepts them, but setup:di:compile refuses such a plugin (as
 * Magento's InterfaceValidator refuses an untyped `$subject`), so a module built from the block
 * would not build.
 */
function untypedPluginSubjects(source: ts.SourceFile, checker: ts.TypeChecker): { node: ts.Node; method: string }[] {
  const out: { node: ts.Node; method: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isMethodDeclaration(node) && ts.isClassLike(node.parent) && ts.isIdentifier(node.name)) {
      const name = node.name.text;
      const subject = node.parameters[0];
      if (/^(before|around|after)[A-Z]/.test(name) && subject) {
        const type = checker.getTypeAtLocation(subject);
        if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) out.push({ node: subject, method: name });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}
