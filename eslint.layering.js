/**
 * The layering, as a lint rule (`layering/imports`, on in eslint.config.js):
 *   - app/framework/ (the runtime) never imports modules/, app/bootstrap/, app/cli/ or app/bin/:
 *     it knows modules only through their configuration; its db/ and exception/ layers never
 *     import webapi/ (HTTP statuses are mapped at the edge, in webapi/ErrorProcessor.ts);
 *   - a module imports the runtime only through `#framework` (its public API), and another module
 *     only through that module's Api/ folder.
 * Import paths are resolved against the importing file, so `../../../modules/...` and
 * `../../Catalog/Model/...` are judged by where they land, not by how they are spelled. This is
 * a few lines of path arithmetic, where no-restricted-imports' patterns would need one pattern per
 * folder depth and eslint-plugin-boundaries a TypeScript import resolver (two more dependencies).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cyclesRule } from './eslint.cycles.js';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const RUNTIME_OUTSIDE_FRAMEWORK = ['app/bootstrap', 'app/cli', 'app/bin'];

/** `modules/<Vendor>/<Module>/rest` of a project-relative path, or null. */
function moduleOf(relative) {
  const [top, vendor, module, ...rest] = relative.split('/');
  if (top !== 'modules' || !vendor || !module || rest.length === 0) return null;
  return { name: `${vendor}_${module}`, rest };
}

function under(relative, folder) {
  return relative === folder || relative.startsWith(`${folder}/`);
}

/** Why importing `target` from `file` (both project-relative, `/`-separated) breaks the layering. */
export function layeringViolation(file, target) {
  if (under(file, 'app/framework')) {
    if (under(target, 'modules'))
      return 'app/framework must not import from modules/: the runtime knows modules only through their etc/*.xml';
    const outside = RUNTIME_OUTSIDE_FRAMEWORK.find((folder) => under(target, folder));
    if (outside)
      return `app/framework must not import from ${outside}/: it is built on the framework, not the other way round`;
    const below = ['app/framework/db', 'app/framework/exception'].find((folder) => under(file, folder));
    if (below && under(target, 'app/framework/webapi'))
      return `${below}/ must not import from app/framework/webapi/: the web API maps domain errors to HTTP at the edge`;
    return null;
  }
  const from = moduleOf(file);
  if (!from) return null;
  if (under(target, 'app'))
    return `${from.name} must import the runtime through '#framework', not from app/ (everything deeper is internal)`;
  const to = moduleOf(target);
  if (to && to.name !== from.name && to.rest[0] !== 'Api') {
    return `${from.name} may import ${to.name} only through its Api/ folder, not ${to.rest.join('/')}`;
  }
  return null;
}

const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'framework never imports modules; a module imports another module only through its Api/' },
    schema: [],
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      // `#modules/...` (package.json imports) is modules/... by another spelling.
      if (!source.value.startsWith('.') && !source.value.startsWith('#modules/')) return;
      const target = source.value.startsWith('#modules/')
        ? source.value.slice(1)
        : path
            .relative(ROOT, path.resolve(path.dirname(context.filename), source.value))
            .split(path.sep)
            .join('/');
      const message = layeringViolation(file, target);
      if (message) context.report({ node: source, message });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

/** `layering/imports` (above) and `layering/cycles` (eslint.cycles.js: no import loop between files or folders). */
export const layering = { rules: { imports: importsRule, cycles: cyclesRule } };
