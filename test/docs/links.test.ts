/**
 * Every relative link of README.md and docs/*.md reaches a file of the project, and a link with an
 * anchor into a Markdown page reaches one of that page's headings (GitHub's anchors).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { anchors, isExternal, links, projectDocs, readDoc, resolveLink } from './support/markdown.js';

describe('README.md and docs/*.md: links', () => {
  const docs = projectDocs();

  it('should find links to check', () => {
    expect(docs.flatMap(links).filter((l) => !isExternal(l.target)).length).to.be.greaterThan(100);
  });

  for (const doc of docs) {
    it(`should reach an existing file and heading from every relative link of ${doc.file}`, () => {
      const broken: string[] = [];
      for (const link of links(doc)) {
        if (isExternal(link.target)) continue;
        const { file, anchor } = resolveLink(doc, link.target);
        const where = `${doc.file}:${link.line} ${link.target}`;
        if (!existsSync(path.join(PROJECT_ROOT, file))) broken.push(`${where}: no file ${file}`);
        else if (anchor && file.endsWith('.md') && !anchors(readDoc(file)).has(anchor)) {
          broken.push(`${where}: no heading #${anchor} in ${file}`);
        }
      }
      expect(broken).to.deep.equal([]);
    });
  }
});
