/**
 * Issue 22 turned the README (870 lines) into an entry page and moved its sections into docs/.
 * Nothing may be lost on the way: test/fixtures/docs/README-before-issue-22.md is the README as it
 * was (commit aa5e5db), and every line of its code blocks, every table row, every sentence of its
 * prose and every heading must still be found in README.md or a docs/*.md page, and every page it
 * linked must still be linked. The few sentences rewritten on the way are listed below with what
 * replaced them. The README itself stays an entry page: short, with the commands, the layers and
 * modules, the first calls of the walkthrough (as docs/walkthrough.md has them) and the departures.
 */
import { expect } from 'chai';
import { PROJECT_MODULES } from '../support/modules.js';
import {
  type Doc,
  headings,
  isExternal,
  lines,
  links,
  normalize,
  projectDocs,
  readDoc,
  resolveLink,
  sentences,
  tableRows,
} from './support/markdown.js';

const BEFORE = readDoc('test/fixtures/docs/README-before-issue-22.md');

/** Old sentences rewritten on the move, and where their content went. */
const REWRITTEN: Record<string, string> = {
  ['Six wrong passwords lock the name for 30 minutes, and more than 10 token requests a minute from one address ' +
  'answer 429 (see "Operating the admin login" below).']:
    'docs/walkthrough.md: the same, "Operating the admin login" now in operating.md, linked',
  ['compressed bodies and other charsets go through `express.json` (body-parser), with the same answers ' +
  '(`JsonBodyReader.test.ts` checks them side by side).']:
    'docs/magento-differences.md: the same, the test renamed JsonBodyReader.http.test.ts',
  ['Every POST, PUT and DELETE route also answers under `/rest/<scope>/async/V1/...` (one request) and ' +
  '`/rest/<scope>/async/bulk/V1/...` (a JSON array of up to 1000 requests, path parameters spelled `by<Param>`), ' +
  'with HTTP 202 and a `bulk_uuid`;']: 'docs/web-api.md: the same, up to 10,000 (BULK_MAX_OPERATIONS) since issue 20',
  // Issue 26 lists every departure from Adobe's webhooks and events one by one under the same heading.
  "Adobe's semantics, with the differences listed in docs/webhooks-and-events.md:":
    "docs/magento-differences.md#webhooks: Adobe's references, the departures listed one by one",
  'every call is signed (Standard Webhooks;': 'docs/magento-differences.md#webhooks: "Every call is signed"',
  ["`webhooks.xml` hooks need a `secret`), plugin before hooks run outside the request's transaction, changed " +
  'arguments are validated again, and the ACL resources are `Dispensary_Webhooks::webhooks_*`.']:
    'docs/magento-differences.md#webhooks: "Where hooks run" and "Delivery routes"',
  "Events are delivered to the subscriber's own URL (not Adobe I/O) straight from the outbox table, not through RabbitMQ.":
    'docs/magento-differences.md#webhooks: "Events go to your destination" (through the queue since issue 21)',
};

/** Old code block lines changed on the move (normalized), and why. */
const CHANGED_CODE: Record<string, string> = {
  '# Two Add Items operations in one request (REC and TOKEN from the walkthrough above)':
    'docs/web-api.md: "from docs/walkthrough.md", no longer above it',
  // Issue 22 moved these files (the framework's import loops); docs/request-path.md's layout names their new places.
  'app/framework/ the runtime: module loader, XML config readers, container (ObjectManager;':
    'xml/ and config/moduleXmlFiles named',
  'validatePluginTargets), interception (PluginChainBuilder composes the chains': 'PluginChainBuilder is in di/ now',
  'PluginList orders, Interceptor runs them), web API (front controller, routes,': 'interception/ is the engine alone',
  'message queue (amqp, db) and the async operations consumer, compile':
    'the consumer is in webapi/, bulk/ the contracts',
  'npm test -- test/modules/Catalog/products.test.ts # one file; or a folder, a quoted glob, mocha options (--grep)':
    'README.md: HTTP suites are named *.http.test.ts now (products.http.test.ts)',
  // Issue 22 split start-up into phases: docs/request-path.md's layout names the phase files.
  'app/bootstrap/ Application.ts: modules -> config -> container -> routes, one concept per file:': 'phases, in order',
  'DeploymentConfig.ts (the only reader of process.env), createKnex.ts,':
    'under loadConfiguration.ts and openResources.ts',
  'preloadClasses.ts, validateRoutes.ts, routeTarget.ts (what a route calls),':
    'under buildContainer.ts, checkRoutes.ts',
  'HttpApp.ts (Express: /rest, /metrics, /swagger), healthEndpoint.ts (/health),': 'HttpApp.ts takes HttpAppDeps now',
  // Issue 22 named HTTP suites *.http.test.ts (docs/testing.md).
  '`<Name>.<aspect>.test.ts` for HTTP tests through the real app of one part': 'now *.http.test.ts',
  "(e.g. FrontController.output); the modules' tests in test/modules/; Magento's": 'FrontController.output.http',
};

/** The old walk "A request, from the socket to SQL and back": rewritten folder by folder (requestPath.test.ts). */
const OLD_WALK = '### A request, from the socket to SQL and back';

function walkRange(doc: Doc): { from: number; to: number } {
  const all = lines(doc);
  const start = all.find((l) => l.text === OLD_WALK)!.number;
  const end = all.find((l) => l.number > start && l.text.startsWith('The layering is a lint rule'))!.number - 1;
  return { from: start, to: end };
}

describe('README and docs/: nothing of the README before issue 22 is lost', () => {
  const docs = projectDocs();
  const corpus = normalize(docs.map((d) => d.text).join('\n'));
  const codeLines = new Set(
    docs.flatMap((d) =>
      lines(d)
        .filter((l) => l.fence !== null)
        .map((l) => normalize(l.text)),
    ),
  );
  const walk = walkRange(BEFORE);

  it('should have a fixture that is the old README', () => {
    expect(BEFORE.text.split('\n').length).to.be.greaterThan(800);
    expect(headings(BEFORE)).to.include('Where this departs from the documents');
  });

  it('should keep every line of every code block', () => {
    const old = lines(BEFORE).filter((l) => l.fence !== null && l.text.trim() !== '');
    expect(old.length).to.be.greaterThan(100);
    const missing = old.map((l) => normalize(l.text)).filter((l) => !codeLines.has(l) && !(l in CHANGED_CODE));
    expect(missing).to.deep.equal([]);
  });

  it('should keep every heading, as (part of) a heading', () => {
    const now = docs.flatMap(headings);
    const missing = headings(BEFORE).filter((h) => !now.some((n) => n.includes(h)));
    expect(missing).to.deep.equal([]);
  });

  it('should keep every table row (configuration variables, CLI commands)', () => {
    const now = new Set(docs.flatMap(tableRows));
    const old = tableRows(BEFORE);
    expect(old.length).to.be.greaterThan(50);
    expect(old.filter((row) => !now.has(row))).to.deep.equal([]);
  });

  it('should keep every sentence of its prose (the walk aside), but those rewritten on purpose', () => {
    const old = [...sentences(BEFORE, { to: walk.from - 1 }), ...sentences(BEFORE, { from: walk.to + 1 })];
    expect(old.length).to.be.greaterThan(300);
    // The bold headlines of list items (`**Errors.**`) may have become headings (`## Errors`).
    const headingsNow = new Set(docs.flatMap(headings));
    const kept = (s: string) => corpus.includes(s) || headingsNow.has(s.replace(/[.:]$/, '')) || s in REWRITTEN;
    const missing = old.filter((s) => !kept(s));
    expect(missing).to.deep.equal([]);
  });

  it('should list as rewritten only sentences that the old README had and the new pages do not', () => {
    const old = new Set(sentences(BEFORE));
    for (const sentence of Object.keys(REWRITTEN)) {
      expect(old.has(sentence), sentence).to.equal(true);
      expect(corpus.includes(sentence), sentence).to.equal(false);
    }
  });

  it('should name every file of the old walk in docs/request-path.md', () => {
    const named = (text: string) => [...text.matchAll(/`([\w./-]+\.(?:ts|xml))`/g)].map((m) => m[1]!);
    const oldFiles = new Set(
      named(
        BEFORE.text
          .split('\n')
          .slice(walk.from - 1, walk.to)
          .join('\n'),
      ),
    );
    const now = named(readDoc('docs/request-path.md').text);
    expect(oldFiles.size).to.be.greaterThan(30);
    const missing = [...oldFiles].filter((f) => !now.some((n) => n === f || n.endsWith(`/${f}`)));
    expect(missing).to.deep.equal([]);
  });

  it('should still link every page the old README linked', () => {
    const linked = new Set(
      docs.flatMap((d) => links(d).map((l) => (isExternal(l.target) ? l.target : resolveLink(d, l.target).file))),
    );
    const root = readDoc('README.md');
    const old = links(BEFORE).map((l) => (isExternal(l.target) ? l.target : resolveLink(root, l.target).file));
    expect(old.filter((target) => !linked.has(target))).to.deep.equal([]);
  });
});

describe('README.md: an entry page', () => {
  const readme = readDoc('README.md');
  const all = lines(readme);

  it('should be about 150 lines', () => {
    expect(all.length).to.be.at.most(175);
  });

  it('should show how to install, test and start', () => {
    const code = all.filter((l) => l.fence !== null).map((l) => l.text);
    for (const command of ['npm ci', 'npm test', 'npm start']) {
      expect(
        code.some((l) => l.startsWith(`${command} `)),
        command,
      ).to.equal(true);
    }
  });

  it("should show the walkthrough's first calls exactly as docs/walkthrough.md runs them", () => {
    const walkthroughLines = lines(readDoc('docs/walkthrough.md')).filter((l) => l.fence !== null);
    const walkthrough = new Set(walkthroughLines.map((l) => l.text));
    const start = all.find((l) => l.text === '## First calls')!.number;
    const end = all.find((l) => l.number > start && l.text.startsWith('## '))!.number;
    const calls = all.filter((l) => l.number > start && l.number < end && l.fence === 'sh' && l.text.trim() !== '');
    expect(calls.filter((l) => l.text.startsWith('curl ') || l.text.includes('$(curl '))).to.have.length(3);
    const commands = calls.filter((l) => !l.text.startsWith('#')).map((l) => l.text);
    expect(commands.filter((l) => !walkthrough.has(l))).to.deep.equal([]);
  });

  it('should link every module README', () => {
    const targets = links(readme).map((l) => l.target);
    // The project's modules and its example (not whatever else sits in modules/: .ci/suite-with-thirdparty-module).
    const readmes = (names: string[]) => names.map((m) => `modules/${m.replace('_', '/')}/README.md`);
    const modules = readmes([...PROJECT_MODULES, 'Acme_RecommendationNotes']);
    expect(modules.filter((readmeFile) => !targets.includes(readmeFile))).to.deep.equal([]);
  });

  it('should link every docs/ page', () => {
    const targets = new Set(links(readme).map((l) => resolveLink(readme, l.target).file));
    const pages = projectDocs()
      .map((d) => d.file)
      .filter((f) => f !== 'README.md');
    expect(pages.filter((p) => !targets.has(p))).to.deep.equal([]);
  });

  it('should list every departure of docs/magento-differences.md by its heading', () => {
    expect(headings(readme)).to.include('Where this departs from the documents');
    const differences = readDoc('docs/magento-differences.md');
    const listed = links(readme)
      .filter((l) => l.target.startsWith('docs/magento-differences.md#'))
      .map((l) => l.text);
    const departures = headings(differences).slice(1);
    expect(departures.length).to.be.greaterThan(25);
    expect(listed).to.have.members(departures);
  });
});
