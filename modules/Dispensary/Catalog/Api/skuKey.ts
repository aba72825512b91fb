// joi itself, which '#framework' re-exports (the same instance): the Catalog and Recommendation
// migrations import this file, and every knex command that reads the migrations runs them from
// their TypeScript sources under tsx (knexfile.js), where '#framework' would load the whole
// framework's sources for one validator (about 0.8 s of CPU a command).
import Joi from 'joi';

/** Longest sku, in Unicode code points (after trimming and NFC). */
export const MAX_SKU_LENGTH = 64;

/**
 * Characters no sku may hold: controls (Cc: NUL, tab, newline...), format characters (Cf:
 * zero-width space and joiners, bidi overrides and isolates, soft hyphen), line and paragraph
 * separators, lone surrogates, and noncharacters. They are invisible or reorder text, so two skus
 * that look the same would differ.
 */
const FORBIDDEN_IN_SKU = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Noncharacter_Code_Point}]/u;

/**
 * The sku as stored: trimmed and in Unicode NFC, so a composed and a decomposed "CAFÉ" are one
 * sku (and the Kelvin sign U+212A, whose canonical form is the letter K, is a K). Throws when the
 * sku is empty, longer than MAX_SKU_LENGTH code points, or holds a forbidden character.
 */
export function normalizeSku(sku: string): string {
  const normalized = sku.trim().normalize('NFC');
  if (normalized === '' || FORBIDDEN_IN_SKU.test(normalized)) throw new Error('not a valid sku');
  let codePoints = 0;
  for (const _ of normalized) if (++codePoints > MAX_SKU_LENGTH) throw new Error('sku too long');
  return normalized;
}

/**
 * The key skus are matched and kept unique by (a unique index on every table that stores one):
 * NFC, then JavaScript's toLowerCase (Unicode's default, locale-independent lower-case mapping:
 * never Turkish or Lithuanian rules), then NFC again. So "ABC" = "abc", "CAFÉ" (composed or not) =
 * "café", the Kelvin sign = "k" (canonically it is K); but the long s "ſ" stays distinct from "s"
 * (it is already lower case; only compatibility folding, which this rule does not apply, would
 * merge them), as do full-width letters from ASCII ones.
 */
export function skuKey(sku: string): string {
  return sku.trim().normalize('NFC').toLowerCase().normalize('NFC');
}

/** The joi schema of a sku in any request: normalizeSku's rule, failing as an invalid value. */
export const skuSchema = Joi.string().custom((value: string) => normalizeSku(value));
