/**
 * A contract parameter's fast path (issue 28, point 5): a plain function, beside the joi schema,
 * that recognises the common valid input and answers exactly what the schema's `validate()` would
 * (the same canonical value), or DEFER for anything else, which the schema then validates and
 * reports as before. joi walks its schema description on every call (about 43 µs for the two
 * items of an Add Items request, the largest piece of the request path outside SQLite and the
 * socket); the fast path does the same checks directly.
 *
 * The schema stays the one source of the rules: every error still comes from it, and a fast path
 * may only accept a subset of what the schema accepts, with the same result (its module's tests
 * compare the two on a corpus of valid and invalid input). It is attached to one schema object:
 * a schema derived from it (`.keys()`, as extension attributes do, `.required()`, ...) has none.
 */
import type Joi from 'joi';

/** What a fast path answers for input it leaves to the schema. */
export const DEFER: unique symbol = Symbol('defer to the schema');

/** The validated value, exactly as the schema's validate() (convert: true) answers it, or DEFER. */
export type FastPath = (value: unknown) => unknown;

const fastPaths = new WeakMap<Joi.Schema, FastPath>();

/** `schema`, with `fast` as its fast path (for this schema object only). */
export function withFastPath<S extends Joi.Schema>(schema: S, fast: FastPath): S {
  fastPaths.set(schema, fast);
  return schema;
}

/** The fast path attached to exactly this schema object, if any. */
export function fastPathOf(schema: Joi.Schema): FastPath | undefined {
  return fastPaths.get(schema);
}
