/**
 * `npm run setup:di:compile [-- <modules dir>...]` (run by `npm run build` and `npm run typecheck`
 * before tsc): writes generated/di/*.ts, the type checks of every module's XML: the module folders
 * named, then the module packages installed in node_modules (docs/module-packages.md). It runs
 * from source under tsx because it must run before tsc compiles anything (see app/framework/compile).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageSourcesIn } from '../bootstrap/config/moduleLocations.js';
import { compileDi } from '../framework/compile/DiCompiler.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dirs = process.argv.slice(2);
try {
  const result = compileDi({
    projectRoot,
    modulesDirs: (dirs.length ? dirs : ['modules']).map((dir) => path.resolve(projectRoot, dir)),
    packageSources: packageSourcesIn(path.join(projectRoot, 'node_modules'), projectRoot),
  });
  process.stderr.write(
    `setup:di:compile: ${result.checks} checks in ${result.files.length} files under generated/di\n`,
  );
  for (const name of result.skipped)
    process.stderr.write(`setup:di:compile: not checked by the compiler (no TypeScript file): ${name}\n`);
  for (const line of result.untyped) process.stderr.write(`setup:di:compile: ${line}\n`);
  for (const line of result.unchecked) process.stderr.write(`setup:di:compile: not checked by the compiler: ${line}\n`);
} catch (error) {
  process.stderr.write(`setup:di:compile: ${(error as Error).message}\n`);
  process.exit(1);
}
