/**
 * The XML reader under every etc/*.xml (app/framework/xml/xml.ts): references are read as libxml,
 * Magento's reader, reads them. Character references are decoded in text and attributes, the five
 * entities XML defines decoded once, CDATA and comments left as written; an entity XML does not
 * define (`&nbsp;`) or a reference to a character XML forbids (`&#0;`) is a start-up error naming
 * the file and line, where fast-xml-parser alone would take the first as HTML and pass the second.
 */
import { expect } from 'chai';
import { ConfigError, parseXmlString } from '../../../app/framework/xml/xml.js';

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
