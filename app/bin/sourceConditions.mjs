// A module resolve hook for what runs the TypeScript sources under tsx (knexfile.js): the
// `dispensary-source` condition of package.json's "imports", so that `#framework`, `#modules/*` and
// `#testing` name the sources there, as they do for tsc (tsconfig.json customConditions), and not
// the compiled copies in dist/, which may be missing or older than the sources.
export async function resolve(specifier, context, next) {
  if (!specifier.startsWith('#') || context.conditions.includes('dispensary-source')) return next(specifier, context);
  return next(specifier, { ...context, conditions: [...context.conditions, 'dispensary-source'] });
}
