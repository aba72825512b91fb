/**
 * Every TypeScript block of every Markdown file of the project (README.md, docs/, module READMEs,
 * BENCHMARKS...) compiles against the project, and every JavaScript block parses: a reader who
 * copies one gets code that builds. How a block is placed, and the few marked fragments:
 * support/codeBlocks.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { checkBlocks, codeBlocks, markdownFiles, projectMarkdown } from './support/codeBlocks.js';

/** A page planted by this test: the checker must find its broken blocks, and only those. */
const PLANTED = {
  file: 'docs/planted-by-codeBlocks-test.md',
  text: [
    '# Planted',
    '',
    '```ts',
    "import { InputException } from '#framework';",
    '',
    "export const error: InputException = InputException.requiredField('sku');",
    '',
    'export class Untyped {',
    '  beforeSave(_subject: unknown, sku: string): [string] {',
    '    return [sku.trim()];',
    '  }',
    '}',
    '```',
    '',
    'A plugin whose result is typed by the contract, returning the wrong thing:',
    '',
    '<!-- file: modules/Acme/Planted/Plugin/Broken.ts -->',
    '```typescript',
    "import type { PluginResult } from '#framework';",
    "import type { RecommendationItemManagementInterface } from '#modules/Dispensary/Recommendation/Api/RecommendationItemManagementInterface.js';",
    '',
    'export class Broken {',
    "  afterAddItems(_subject: RecommendationItemManagementInterface, result: PluginResult<RecommendationItemManagementInterface, 'addItems'>): string {",
    '    return result.recommendation_id.toFixed(2);',
    '  }',
    '}',
    '```',
    '',
    '<!-- fragment: one entry of an object -->',
    '```ts',
    'createAdminAccessToken: { transactional: false },',
    '```',
    '',
    '```js',
    'const ok = (x) => x + 1;',
    'const broken = (x => ;',
    '```',
    '',
  ].join('\n'),
};

describe('Markdown code blocks: every TypeScript block compiles, every JavaScript block parses', function () {
  // One program for every block: the compiler reads the project's types once (seconds, more on a loaded machine).
  this.timeout(300_000);

  const docs = projectMarkdown();
  const blocks = docs.flatMap(codeBlocks);
  const planted = codeBlocks(PLANTED);
  let errors: string[] = [];
  before(() => {
    errors = checkBlocks([...blocks, ...planted]);
  });

  it("should read every README and doc page, the modules' READMEs too", () => {
    const files = markdownFiles();
    for (const file of [
      'README.md',
      'BENCHMARKS.md',
      'docs/writing-a-module.md',
      'modules/Dispensary/Recommendation/README.md',
    ])
      expect(files, file).to.include(file);
    expect(blocks.filter((b) => b.lang === 'ts').length).to.be.greaterThan(15);
  });

  it('should compile every TypeScript block and parse every JavaScript block of the project', () => {
    expect(errors.filter((e) => !e.startsWith(PLANTED.file))).to.deep.equal([]);
  });

  it('should find the errors of a planted page, at their lines, and pass its good blocks and its fragment', () => {
    const found = errors.filter((e) => e.startsWith(PLANTED.file));
    expect(found.map((e) => e.replace(/ .*/, ''))).to.deep.equal([
      `${PLANTED.file}:9:`, // a plugin subject typed unknown, as setup:di:compile refuses
      `${PLANTED.file}:24:`, // toFixed on a string
      `${PLANTED.file}:36:`, // the JavaScript syntax error
    ]);
    expect(found[1]).to.match(/TS\d+ Property 'toFixed' does not exist on type 'string'/);
    expect(found[0]).to.contain('plugin method beforeSave types its subject as unknown');
    expect(planted.map((b) => [b.file, b.fragment])).to.deep.equal([
      [`${PLANTED.file}.block1.ts`, null],
      ['modules/Acme/Planted/Plugin/Broken.ts', null],
      [`${PLANTED.file}.block3.ts`, 'one entry of an object'],
      [`${PLANTED.file}.block4.js`, null],
    ]);
  });

  it('should show an included file byte for byte', () => {
    const included = blocks.filter((b) => b.marker === 'include');
    expect(included.length).to.be.greaterThan(10);
    const differ = included.filter((b) => readFileSync(path.join(PROJECT_ROOT, b.file), 'utf8') !== b.body);
    expect(differ.map((b) => `${b.doc}:${b.line} ${b.file}`)).to.deep.equal([]);
  });

  it('should mark few blocks as fragments, each with its reason', () => {
    const fragments = blocks.filter((b) => b.fragment !== null);
    expect(fragments.filter((b) => b.fragment === '').map((b) => `${b.doc}:${b.line}`)).to.deep.equal([]);
    expect(fragments.length, fragments.map((b) => `${b.doc}:${b.line}`).join(', ')).to.be.at.most(3);
  });

  it('should compile no two blocks as the same file', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const b of blocks.filter((b) => b.fragment === null)) {
      const where = `${b.doc}:${b.line}`;
      if (seen.has(b.file) && b.marker !== 'include') twice.push(`${b.file}: ${seen.get(b.file)} and ${where}`);
      seen.set(b.file, where);
    }
    expect(twice).to.deep.equal([]);
  });
});
