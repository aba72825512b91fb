/**
 * `npm run setup:di:compile [-- <modules dir>...]` (run by `npm run build` and `npm run typecheck`
 * before tsc): writes generated/di/*.ts, the type checks of every module's XML: the module folders
 * named, then the module packages installed in node_modules (docs/module-packages.md). It runs
 * from source under tsx because it must run before tsc compiles anything (see app/framework/compile).
 * `npm run build` runs the compiled copy of this file in its own process instead (setupDiCompile),
 * when none of the files it is made of changed since the last build that passed (app/bin/build.mjs).
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageSourcesIn } from '../bootstrap/config/moduleLocations.js';
import { compileDi } from '../framework/compile/DiCompiler.js';

/** Compiles the modules of `dirs` (relative to the project root; `modules` when none) and the installed packages; answers the exit status. */
export function setupDiCompile(projectRoot: string, dirs: readonly string[], print: (line: string) => void): number {
  try {
    const result = compileDi({
      projectRoot,
      modulesDirs: (dirs.length ? dirs : ['modules']).map((dir) => path.resolve(projectRoot, dir)),
      packageSources: packageSourcesIn(path.join(projectRoot, 'node_modules'), projectRoot),
    });
    print(`setup:di:compile: ${result.checks} checks in ${result.files.length} files under generated/di`);
    for (const name of result.skipped)
      print(`setup:di:compile: not checked by the compiler (no TypeScript file): ${name}`);
    for (const line of result.untyped) print(`setup:di:compile: ${line}`);
    for (const line of result.unchecked) print(`setup:di:compile: not checked by the compiler: ${line}`);
    return 0;
  } catch (error) {
    print(`setup:di:compile: ${(error as Error).message}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  process.exitCode = setupDiCompile(projectRoot, process.argv.slice(2), (line) => process.stderr.write(`${line}\n`));
}
