/**
 * Reads Magento-style XML config with fast-xml-parser into a small ordered element tree, and
 * checks it against an expected vocabulary: an unknown element or attribute is a start-up error
 * that names the file, instead of config that is silently ignored.
 */
import { readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** Concatenated, trimmed text content. */
  readonly text: string;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
  commentPropName: '#comment',
  processEntities: true,
  // Character references (`&#10;`, `&#x41;`) decoded, as libxml (Magento's reader) does; the
  // named HTML entities this also turns on never get here (checkReferences refuses them first).
  htmlEntities: true,
});

/** The entities XML defines; without a DTD any other name is undefined, and libxml refuses it. */
const PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
const REFERENCE = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z_:][\w.:-]*));/g;
/** Comments and CDATA sections hold no references: blanked, line breaks kept for the line numbers. */
const LITERAL = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g;

/** XML 1.0's Char production: what a character reference may name. */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/**
 * fast-xml-parser's validator lets `&nbsp;` and `&#0;` through, and its parser would decode the
 * first as an HTML entity: refuse both, as libxml does, naming the line.
 */
function checkReferences(xml: string, file: string): void {
  const markup = xml.replace(LITERAL, (literal) => literal.replace(/[^\n]/g, ' '));
  for (const match of markup.matchAll(REFERENCE)) {
    const [reference, hex, decimal, name] = match;
    const line = markup.slice(0, match.index).split('\n').length;
    if (name !== undefined) {
      if (PREDEFINED.has(name)) continue;
      throw new ConfigError(
        `${file}:${line}: malformed XML: the entity ${reference} is not defined (XML defines only &amp; &lt; &gt; &quot; &apos;; write a character as a reference such as &#160;)`,
      );
    }
    if (!isXmlChar(parseInt(hex ?? decimal!, hex === undefined ? 10 : 16)))
      throw new ConfigError(`${file}:${line}: malformed XML: ${reference} is not a character XML allows`);
  }
}

type RawNode = Record<string, unknown>;

function toElement(node: RawNode): XmlElement | null {
  const attrs = (node[':@'] as Record<string, string> | undefined) ?? {};
  const name = Object.keys(node).find((key) => key !== ':@');
  if (!name || name === '#text' || name === '#comment' || name.startsWith('?')) return null;
  const rawChildren = (node[name] as RawNode[]) ?? [];
  const children: XmlElement[] = [];
  let text = '';
  for (const child of rawChildren) {
    if ('#text' in child) text += String(child['#text']);
    else {
      const element = toElement(child);
      if (element) children.push(element);
    }
  }
  return { name, attrs, children, text: text.trim() };
}

export function parseXmlString(xml: string, file: string): XmlElement {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new ConfigError(`${file}:${valid.err.line}: malformed XML: ${valid.err.msg}`);
  }
  checkReferences(xml, file);
  const roots = (parser.parse(xml) as RawNode[]).map(toElement).filter((e): e is XmlElement => e !== null);
  if (roots.length !== 1) throw new ConfigError(`${file}: expected one root element`);
  return roots[0]!;
}

/**
 * The trees of the files read so far, by path, with the text each was parsed from: a process that
 * builds its configuration again (every test application, every CLI run in a test) reads each file
 * again but parses it once while its text is the same. Keyed by path and whole text, so an edited
 * file (or another file at the same path) is parsed again, and a file that does not parse is never
 * kept: its error is thrown again, naming it, each time. The trees are frozen, as their type says.
 */
const parsedFiles = new Map<string, { readonly xml: string; readonly root: XmlElement }>();
/** Enough for every etc/*.xml of a project many times over; temporary module trees of tests come and go. */
const PARSED_FILES_KEPT = 4000;

function deepFreeze(element: XmlElement): XmlElement {
  Object.freeze(element.attrs);
  for (const child of element.children) deepFreeze(child);
  Object.freeze(element.children);
  return Object.freeze(element);
}

export function parseXmlFile(file: string): XmlElement {
  const xml = readFileSync(file, 'utf8');
  const kept = parsedFiles.get(file);
  if (kept?.xml === xml) return kept.root;
  const root = deepFreeze(parseXmlString(xml, file));
  parsedFiles.delete(file);
  if (parsedFiles.size >= PARSED_FILES_KEPT) parsedFiles.delete(parsedFiles.keys().next().value!);
  parsedFiles.set(file, { xml, root });
  return root;
}

/** Namespace and schema-location attributes Magento files carry; accepted anywhere. */
function isNamespaceAttribute(name: string): boolean {
  return name === 'xmlns' || name.startsWith('xmlns:') || name === 'xsi:noNamespaceSchemaLocation';
}

export interface ElementRule {
  required?: readonly string[];
  optional?: readonly string[];
  children?: readonly string[];
  /** Whether text content is allowed. */
  text?: boolean;
}

/** Checks one element's attributes and child names against its rule. */
export function checkElement(element: XmlElement, rule: ElementRule, file: string, where = element.name): void {
  const allowed = new Set([...(rule.required ?? []), ...(rule.optional ?? [])]);
  for (const attr of Object.keys(element.attrs)) {
    if (!allowed.has(attr) && !isNamespaceAttribute(attr)) {
      throw new ConfigError(`${file}: unknown attribute "${attr}" on <${where}>`);
    }
  }
  for (const attr of rule.required ?? []) {
    if (!element.attrs[attr]) throw new ConfigError(`${file}: <${where}> needs the attribute "${attr}"`);
  }
  const children = new Set(rule.children ?? []);
  for (const child of element.children) {
    if (!children.has(child.name)) {
      throw new ConfigError(`${file}: unknown element <${child.name}> in <${where}>`);
    }
  }
  if (!rule.text && element.text !== '') {
    throw new ConfigError(`${file}: unexpected text "${element.text.slice(0, 40)}" in <${where}>`);
  }
}

export function parseBooleanAttr(value: string | undefined, file: string, what: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ConfigError(`${file}: ${what} must be true or false, not "${value}"`);
}
