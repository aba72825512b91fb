import { expect } from 'chai';
import fc from 'fast-check';
import { applyFields, parseFields } from '../../../app/framework/webapi/PartialResponse.js';
import { snakeCaseKeys, toCamelCase, toSnakeCase } from '../../../app/framework/webapi/naming.js';

describe('PartialResponse', () => {
  it('should parse nested field lists', () => {
    const tree = parseFields('items[sku,stock[qty]],id');
    expect(tree).to.deep.equal(
      new Map<string, unknown>([
        [
          'items',
          new Map<string, unknown>([
            ['sku', true],
            ['stock', new Map([['qty', true]])],
          ]),
        ],
        ['id', true],
      ]),
    );
  });

  it('should answer null for an empty or unbalanced list', () => {
    for (const spec of ['', ',', 'a[b', 'a]b', 'a[b]]']) expect(parseFields(spec), spec).to.equal(null);
  });

  it('should keep only the named keys, in every element of a list, and nothing it was not given', () => {
    const value = [{ a: 1, b: { c: 2, d: 3 } }, { a: 4 }, 'plain'];
    expect(applyFields(value, parseFields('b[d],a')!)).to.deep.equal([{ b: { d: 3 }, a: 1 }, { a: 4 }, 'plain']);
  });

  it('should never add keys to the value', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.constantFrom('a', 'b', 'c[a]', 'b[c,a]'), { minLength: 1, maxLength: 3 }),
        (value, parts) => {
          const filtered = applyFields(value, parseFields(parts.join(','))!);
          const keys = (v: unknown): string[] =>
            v && typeof v === 'object' ? Object.entries(v).flatMap(([k, inner]) => [k, ...keys(inner)]) : [];
          const before = new Set(keys(value));
          for (const key of keys(filtered)) expect(before.has(key) || /^\d+$/.test(key)).to.equal(true);
        },
      ),
    );
  });
});

describe('naming', () => {
  it('should convert camelCase to snake_case and back', () => {
    expect(toSnakeCase('recommendationId')).to.equal('recommendation_id');
    expect(toSnakeCase('already_snake')).to.equal('already_snake');
    expect(toCamelCase('notify_email')).to.equal('notifyEmail');
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]+([A-Z][a-z]+)*$/), (name) => toCamelCase(toSnakeCase(name)) === name),
    );
  });

  it('should snake_case keys at every depth and drop undefined values and functions', () => {
    const output = snakeCaseKeys({
      itemId: 1,
      nested: [{ isInStock: true, skip: undefined, fn: () => 1 }],
      keep_me: null,
    });
    expect(output).to.deep.equal({ item_id: 1, nested: [{ is_in_stock: true }], keep_me: null });
  });
});
