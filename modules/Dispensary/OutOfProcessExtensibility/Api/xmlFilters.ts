/**
 * The `<fields>`, `<rules>` and `<headers>` of Adobe's webhooks.xml and io_events.xml, in both forms
 * Adobe's references print, merged across modules as Magento merges XML (by identity, a later
 * module's entry changes an earlier one, `remove="true"` takes it away):
 *
 *   <field name="product.sku" source="data.product.sku"/>          (identity: name)
 *   <rule field="qty" operator="lessThan" value="20"/>             (identity: field and operator)
 *   <rule><field>qty</field><operator>lessThan</operator><value>20</value></rule>
 *   <header name="Authorization">Bearer {env:TOKEN}</header>        (identity: name)
 *
 * What Adobe's schema has and this project does not do (a `converter` class, a `context_*` source or
 * rule field, the `onChange` operator, a header `resolver`) stops start-up naming the file and
 * element rather than being ignored (docs/magento-differences.md).
 */
import { ConfigError, checkElement, parseBooleanAttr, type XmlElement } from '#framework';
import { isContextPath, xmlElementOf, type SettingProblem } from './filterSettings.js';
import { RULE_OPERATORS, type PayloadField, type PayloadRule } from './payloadFilters.js';

export type XmlField = PayloadField;
export type XmlRule = PayloadRule;
export interface XmlHeader {
  name: string;
  value: string;
}

/** Entries by identity, in declaration order; `null`: removed by a later declaration. */
export type Merged<T> = Map<string, T | null>;

function refuseContext(path: string, file: string, where: string): void {
  if (isContextPath(path))
    throw new ConfigError(
      `${file}: <${where}> "${path}": context values (context_*) are not supported here; use a path into the payload`,
    );
}

/** Adds a `<fields>` element's `<field>` children to `into`. */
export function mergeXmlFields(fields: XmlElement, into: Merged<XmlField>, file: string): void {
  checkElement(fields, { children: ['field'] }, file, 'fields');
  for (const f of fields.children) {
    checkElement(f, { required: ['name'], optional: ['source', 'remove', 'converter'] }, file, 'field');
    const name = f.attrs.name!;
    if (parseBooleanAttr(f.attrs.remove, file, `<field name="${name}"> remove`) === true) {
      into.set(name, null);
      continue;
    }
    if (f.attrs.converter !== undefined)
      throw new ConfigError(`${file}: <field name="${name}">: converter classes are not supported`);
    refuseContext(f.attrs.source ?? name, file, 'field');
    into.set(name, f.attrs.source ? { name, source: f.attrs.source } : { name });
  }
}

/** A `<rule>` in either form: attributes, or `<field>`, `<operator>`, `<value>` child elements. */
export function readXmlRule(r: XmlElement, file: string): { rule: XmlRule; remove: boolean } {
  let rule: XmlRule;
  if (r.children.length > 0) {
    checkElement(r, { optional: ['remove'], children: ['field', 'operator', 'value'] }, file, 'rule');
    const text = (name: string): string | undefined => {
      const found = r.children.filter((c) => c.name === name);
      if (found.length > 1) throw new ConfigError(`${file}: <rule> has more than one <${name}>`);
      if (found[0]) checkElement(found[0], { text: true }, file, `rule/${name}`);
      return found[0]?.text;
    };
    const field = text('field');
    const operator = text('operator');
    if (!field) throw new ConfigError(`${file}: <rule> needs a <field> element (or the attribute "field")`);
    if (!operator)
      throw new ConfigError(`${file}: <rule> of "${field}" needs an <operator> element (or the attribute "operator")`);
    const value = text('value');
    rule = value === undefined ? { field, operator } : { field, operator, value };
  } else {
    checkElement(r, { required: ['field', 'operator'], optional: ['value', 'remove'] }, file, 'rule');
    rule =
      r.attrs.value === undefined
        ? { field: r.attrs.field!, operator: r.attrs.operator! }
        : { field: r.attrs.field!, operator: r.attrs.operator!, value: r.attrs.value };
  }
  const remove = parseBooleanAttr(r.attrs.remove, file, `<rule> of "${rule.field}": remove`) === true;
  if (!remove) {
    if (!(RULE_OPERATORS as readonly string[]).includes(rule.operator))
      throw new ConfigError(
        `${file}: <rule> of "${rule.field}": unknown operator "${rule.operator}" (one of ${RULE_OPERATORS.join(', ')})`,
      );
    refuseContext(rule.field, file, 'rule');
  }
  return { rule, remove };
}

export function mergeXmlRules(rules: XmlElement, into: Merged<XmlRule>, file: string): void {
  checkElement(rules, { children: ['rule'] }, file, 'rules');
  for (const r of rules.children) {
    const { rule, remove } = readXmlRule(r, file);
    const key = `${rule.field}\n${rule.operator}`;
    into.set(key, remove ? null : rule);
  }
}

export function mergeXmlHeaders(headers: XmlElement, into: Merged<XmlHeader>, file: string): void {
  checkElement(headers, { children: ['header'] }, file, 'headers');
  for (const h of headers.children) {
    checkElement(h, { required: ['name'], optional: ['remove', 'resolver'], text: true }, file, 'header');
    if (h.attrs.resolver !== undefined)
      throw new ConfigError(`${file}: <header name="${h.attrs.name}">: header resolver classes are not supported`);
    const name = h.attrs.name!;
    into.set(
      name,
      parseBooleanAttr(h.attrs.remove, file, `<header name="${name}"> remove`) === true
        ? null
        : { name, value: h.text },
    );
  }
}

/** The `<fields>`, `<rules>` (and, for a hook, `<headers>`) of one hook or event, merged across files. */
export interface XmlFilters {
  readonly fields: Merged<XmlField>;
  readonly rules: Merged<XmlRule>;
  readonly headers?: Merged<XmlHeader>;
}

/** Merges a `<fields>`, `<rules>` or `<headers>` element into `into` (the element's checkElement has named the children allowed). */
export function mergeXmlFilters(element: XmlElement, into: XmlFilters, file: string): void {
  if (element.name === 'fields') mergeXmlFields(element, into.fields, file);
  else if (element.name === 'rules') mergeXmlRules(element, into.rules, file);
  else if (element.name === 'headers' && into.headers) mergeXmlHeaders(element, into.headers, file);
}

/** A start-up error for a setting of a webhooks.xml/io_events.xml entry refused: where, the element, why. */
export function xmlSettingError(where: string, problem: SettingProblem): ConfigError {
  return new ConfigError(`${where}: ${xmlElementOf(problem)}: ${problem.reason}`);
}

export function mergedValues<T>(merged: Merged<T>): T[] {
  return [...merged.values()].filter((value): value is T => value !== null);
}
