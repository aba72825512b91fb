/**
 * docs/writing-a-module.md and its reference pages (docs/reference/*.md) cannot drift from the
 * code: every code block in them is an included file of the guide's module (or its test), byte for
 * byte; every file of that module is shown on one of them; and the shell commands they list run.
 * reminders.test.ts boots the module and exercises it.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DIST_ROOT, PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { PROJECT_MODULE_SOURCES } from '../support/modules.js';
import { TestApp } from '../support/testApp.js';

const GUIDE = path.join(PROJECT_ROOT, 'docs', 'writing-a-module.md');
const REFERENCE_DIR = path.join(PROJECT_ROOT, 'docs', 'reference');
/** The guide's reference pages: the reference moved out of the tutorial, tested the same way. */
const REFERENCE = readdirSync(REFERENCE_DIR)
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => path.join(REFERENCE_DIR, name));
const MODULE_DIR = 'test/fixtures/guide/modules/Acme/Reminders';

interface Block {
  readonly include: string | null;
  readonly lang: string;
  readonly body: string;
}

function blocks(markdown: string): Block[] {
  const found: Block[] = [];
  const fence = /(?:<!-- include: (\S+) -->\n)?```(\w*)\n([\s\S]*?)^```$/gm;
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) {
    found.push({ include: match[1] ?? null, lang: match[2]!, body: match[3]! });
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(PROJECT_ROOT, dir)).flatMap((entry) => {
    const relative = `${dir}/${entry}`;
    return statSync(path.join(PROJECT_ROOT, relative)).isDirectory() ? filesUnder(relative) : [relative];
  });
}

/** `npm run cli -- a 'b c'` -> ['a', 'b c'] */
function cliArgs(line: string): string[] {
  return [...line.replace(/^npm run cli -- /, '').matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe('docs/writing-a-module.md and docs/reference/', () => {
  const guide = blocks(readFileSync(GUIDE, 'utf8'));
  const all = [...guide, ...REFERENCE.flatMap((page) => blocks(readFileSync(page, 'utf8')))];

  it('should link every reference page from the guide', () => {
    const markdown = readFileSync(GUIDE, 'utf8');
    for (const page of REFERENCE) expect(markdown, page).to.contain(`](reference/${path.basename(page)}`);
  });

  it('should show each included file byte for byte, most of the module in the guide itself', () => {
    expect(guide.filter((b) => b.include).length).to.be.greaterThan(filesUnder(MODULE_DIR).length / 2);
    const included = all.filter((b) => b.include);
    for (const block of included) {
      expect(block.body, block.include!).to.equal(readFileSync(path.join(PROJECT_ROOT, block.include!), 'utf8'));
    }
  });

  // The reference pages may also show examples of their own: test/docs/codeBlocks.test.ts compiles those.
  it('should have no code block in the guide that is not an included file, apart from the folder tree and shell commands', () => {
    const loose = guide.filter((b) => !b.include && b.lang !== 'sh' && !b.body.startsWith('modules/Acme/Reminders/'));
    expect(loose.map((b) => b.body.slice(0, 60))).to.deep.equal([]);
  });

  it('should show every file of the module, and its test, in the guide or a reference page', () => {
    const included = new Set(all.map((b) => b.include));
    for (const file of [...filesUnder(MODULE_DIR), 'test/guide/reminders.test.ts'])
      expect(included.has(file), file).to.equal(true);
  });

  it('should list shell commands that run', async function () {
    const commands = all
      .filter((b) => b.lang === 'sh')
      .flatMap((b) => b.body.split('\n').filter((l) => l.startsWith('npm run cli -- ')));
    expect(commands.length).to.be.greaterThan(0);
    // The guide switches its module off and on: on a copy of etc/config.json, never the project's own.
    const configDir = mkdtempSync(path.join(os.tmpdir(), 'guide-config-'));
    const moduleConfigFile = path.join(configDir, 'config.json');
    copyFileSync(path.join(PROJECT_ROOT, 'etc', 'config.json'), moduleConfigFile);
    const t = await TestApp.start({
      moduleConfigFile,
      moduleSources: [
        PROJECT_MODULE_SOURCES,
        {
          modulesDir: path.join(PROJECT_ROOT, 'test', 'fixtures', 'guide', 'modules'),
          codeDir: path.join(DIST_ROOT, 'test', 'fixtures', 'guide', 'modules'),
        },
      ],
    });
    try {
      for (const command of commands) {
        const result = await t.cli(...cliArgs(command));
        expect(result.code, `${command}: ${result.err.join('\n')}`).to.equal(0);
        expect(result.out.join('\n'), command).to.not.equal('');
      }
      expect((await t.cli('dev:event:list', 'dispensary_recommendation_save_after')).out.join('\n')).to.contain(
        'acme_reminders_schedule_follow_up',
      );
    } finally {
      await t.stop();
      rmSync(configDir, { recursive: true, force: true });
    }
  });
});
