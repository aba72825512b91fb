/**
 * The XML reader under every etc/*.xml (app/framework/xml/xml.ts): references are read as libxml,
 * Magento's reader, reads them. Character references are decoded in text and attributes, the five
 * entities XML defines decoded once, CDATA and comments left as written; an entity XML does not
 * define (`&nbsp;`) or a reference to a character XML forbids (`&#0;`) is a start-up error naming
 * the file and line, where fast-xml-parser alone would take the first as HTML and pass the second.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, parseXmlFile, parseXmlString } from '../../../app/framework/xml/xml.js';

const FILE = 'app/code/Acme/Base/etc/di.xml';

describe('XML config reader: entity and character references', () => {
  it('should decode decimal and hexadecimal character references in text and attributes', () => {
    const root = parseXmlString('<config><item value="a&#10;b&#x41;&#x1F600;">line&#10;two&#65;</item></config>', FILE);
    expect(root.children[0]!.attrs.value).to.equal('a\nbA😀');
    expect(root.children[0]!.text).to.equal('line\ntwoA');
  });

  it('should decode the five predefined entities once, never twice', () => {
    const root = parseXmlString(
      '<config><item value="&amp;lt;&quot;&apos;">&amp;amp; &lt;b&gt; &#38;lt;</item></config>',
      FILE,
    );
    expect(root.children[0]!.attrs.value).to.equal('&lt;"\'');
    expect(root.children[0]!.text).to.equal('&amp; <b> &lt;');
  });

  it('should keep CDATA as written and look for no reference in it or in comments', () => {
    const root = parseXmlString('<config><!-- &nbsp; &#0; --><item><![CDATA[&nbsp;&#10;&amp;]]></item></config>', FILE);
    expect(root.children[0]!.text).to.equal('&nbsp;&#10;&amp;');
  });

  const refused: [string, string, string][] = [
    [
      'an HTML entity XML does not define',
      '<config>\n<item>a&nbsp;b</item>\n</config>',
      `${FILE}:2: malformed XML: the entity &nbsp;`,
    ],
    [
      'an undefined entity in an attribute',
      '<config>\n\n<item value="&copy;"/></config>',
      `${FILE}:3: malformed XML: the entity &copy;`,
    ],
    [
      'a reference to character 0',
      '<config><item>&#0;</item></config>',
      `${FILE}:1: malformed XML: &#0; is not a character`,
    ],
    ['a reference to a surrogate', '<config><item>&#xD800;</item></config>', '&#xD800; is not a character'],
    ['a reference past U+10FFFF', '<config><item>&#1114112;</item></config>', '&#1114112; is not a character'],
    ['a control character', '<config><item>&#x1B;</item></config>', '&#x1B; is not a character'],
  ];
  for (const [what, xml, message] of refused) {
    it(`should refuse ${what}, naming the file and line`, () => {
      expect(() => parseXmlString(xml, FILE))
        .to.throw(ConfigError)
        .with.property('message')
        .that.includes(message);
    });
  }

  it('should count lines inside a comment when naming the line of a later error', () => {
    expect(() => parseXmlString('<config><!--\n\n--><item>&nbsp;</item></config>', FILE)).to.throw(`${FILE}:3:`);
  });
});

describe('XML config reader: a file read again', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'xml-read-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should answer what the file says now: an edit, an error and its fix, another file of the same text', () => {
    const file = path.join(dir, 'di.xml');
    writeFileSync(file, '<config><item name="a"/></config>');
    expect(parseXmlFile(file).children[0]!.attrs.name).to.equal('a');
    expect(parseXmlFile(file).children[0]!.attrs.name).to.equal('a');
    // Same length, same second: only the text tells the edit apart.
    writeFileSync(file, '<config><item name="b"/></config>');
    expect(parseXmlFile(file).children[0]!.attrs.name).to.equal('b');
    writeFileSync(file, '<config>\n<item>&nbsp;</item></config>');
    for (let i = 0; i < 2; i++) expect(() => parseXmlFile(file)).to.throw(ConfigError, `${file}:2: malformed XML`);
    writeFileSync(file, '<config><item name="c"/></config>');
    expect(parseXmlFile(file).children[0]!.attrs.name).to.equal('c');
    const other = path.join(dir, 'events.xml');
    writeFileSync(other, '<config>\n<item>&nbsp;</item></config>');
    expect(() => parseXmlFile(other)).to.throw(ConfigError, `${other}:2: malformed XML`);
  });

  it('should answer a tree no reader can change for the next one', () => {
    const file = path.join(dir, 'di.xml');
    writeFileSync(file, '<config><item name="a"><child/></item></config>');
    const root = parseXmlFile(file);
    const item = root.children[0]!;
    expect(() => ((item.attrs as Record<string, string>).name = 'changed')).to.throw(TypeError);
    expect(() => (item.children as unknown[]).push(item)).to.throw(TypeError);
    expect(() => ((root as { text: string }).text = 'changed')).to.throw(TypeError);
    expect(parseXmlFile(file).children[0]!.attrs.name).to.equal('a');
  });
});
