/**
 * Magento's partial response: `?fields=items[sku,qty],recommendation_id` keeps only the named
 * fields; brackets select inside an object or inside every element of a list.
 */
export type FieldTree = Map<string, FieldTree | true>;

export function parseFields(raw: string): FieldTree | null {
  const spec = raw.replace(/\s+/g, ''); // field names never hold whitespace: `a, b[ c ]` is `a,b[c]`
  let pos = 0;
  const parseList = (): FieldTree => {
    const tree: FieldTree = new Map();
    while (pos < spec.length) {
      let name = '';
      while (pos < spec.length && !'[],'.includes(spec[pos]!)) name += spec[pos++];
      name = name.trim();
      if (spec[pos] === '[') {
        pos++;
        const inner = parseList();
        if (spec[pos] !== ']') throw new Error('unbalanced brackets');
        pos++;
        if (name) tree.set(name, inner);
      } else if (name) tree.set(name, true);
      if (spec[pos] === ',') pos++;
      else break;
    }
    return tree;
  };
  try {
    const tree = parseList();
    if (pos !== spec.length) return null;
    return tree.size ? tree : null;
  } catch {
    return null;
  }
}

export function applyFields(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((item) => applyFields(item, tree));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of tree) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    out[key] = sub === true ? item : applyFields(item, sub);
  }
  return out;
}
