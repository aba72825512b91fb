/**
 * BENCHMARKS.md is a results page, not a notebook: how to run every benchmark, the latest figure of
 * each with its date and the machine's load, the targets; the dated runs live in
 * docs/benchmarks-history.md, which it links.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { anchors, headings, isExternal, lines, links, readDoc, resolveLink } from './support/markdown.js';

describe('BENCHMARKS.md: the results page', () => {
  const page = readDoc('BENCHMARKS.md');

  it('should have how to run, the latest figures and the targets, and stay short', () => {
    expect(headings(page).filter((h) => !/^[`#]/.test(h))).to.include.members([
      'How to run',
      'Latest figures',
      'Targets',
    ]);
    expect(page.text.split('\n').length).to.be.at.most(200);
  });

  it('should say how to run every benchmark script of package.json', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
        .scripts,
    ).filter((name) => /^bench(:|$)/.test(name));
    expect(scripts.length).to.be.greaterThan(4);
    const howToRun = lines(page)
      .filter((l) => l.fence === 'sh')
      .map((l) => l.text);
    for (const script of scripts)
      expect(
        howToRun.some((l) => l.startsWith(`npm run ${script} `)),
        script,
      ).to.equal(true);
  });

  it('should date each latest figure and say how loaded the machine was', () => {
    const sections = page.text.split(/^### /m).slice(1);
    const latest = sections.filter((s) => page.text.indexOf(s) < page.text.indexOf('\n## Targets'));
    expect(latest.length).to.be.greaterThan(5);
    for (const section of latest) {
      const title = section.split('\n')[0]!;
      expect(section, title).to.match(/20\d\d-\d\d-\d\d/);
      expect(section, title).to.match(/load average|nothing else running|under load/);
    }
  });

  it('should link the history, whose links and the anchors into it all resolve', () => {
    const history = readDoc('docs/benchmarks-history.md');
    expect(links(page).map((l) => l.target)).to.include('docs/benchmarks-history.md');
    expect(history.text).to.contain('## Issue 20, final: the targets on a quiet machine');
    for (const doc of [page, history]) {
      for (const link of links(doc).filter((l) => !isExternal(l.target))) {
        const { file, anchor } = resolveLink(doc, link.target);
        expect(existsSync(path.join(PROJECT_ROOT, file)), `${doc.file}:${link.line}`).to.equal(true);
        if (anchor) expect(anchors(readDoc(file)).has(anchor), `${doc.file}:${link.line}`).to.equal(true);
      }
    }
    // docs/magento-differences.md links the driver decision here.
    expect(anchors(page).has('better-sqlite3-rather-than-sqlite3-the-original-designs-driver')).to.equal(true);
  });
});
