/**
 * `--baseline <git ref>`: the project at another revision, extracted with `git archive` under
 * var/bench/baseline/ and compiled there, so its service can run side by side with the current
 * one in the same interleaved rounds: before/after figures measured in one run, on one database.
 * (Node resolves its packages from this project's node_modules, up the directory tree; the ref
 * must have the same migrations as the working tree.)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';

export function prepareBaseline(ref: string, dir: string, log: (line: string) => void): string {
  const root = path.resolve(dir, 'baseline');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
  log(`baseline: building ${ref} (${commit}) in ${path.relative(PROJECT_ROOT, root)} ...`);
  const archive = execFileSync('git', ['archive', '--format=tar', commit], {
    cwd: PROJECT_ROOT,
    maxBuffer: 512 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', root], { input: archive });
  // tsc needs the types setup:di:compile generates (generated/di, not in git): that revision's own
  // step first, as its `npm run build` runs it, with this project's packages.
  const scripts = (
    JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  if (scripts['setup:di:compile']) {
    const [tool, ...args] = scripts['setup:di:compile'].split(/\s+/);
    execFileSync(path.join(PROJECT_ROOT, 'node_modules', '.bin', tool!), args, { cwd: root, stdio: 'inherit' });
  }
  execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', root], {
    stdio: 'inherit',
  });
  return root;
}
