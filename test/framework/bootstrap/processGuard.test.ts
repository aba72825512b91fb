/**
 * processGuard.ts: in the server, an error that escapes its request (a rejection nobody awaited, a
 * throw in a timer or event listener) is logged and the process serves on (issue 25). Run in a
 * child process of its own: the test runner has its own handlers for both.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { DIST_ROOT } from '../../../app/bootstrap/config/paths.js';

describe('processGuard', () => {
  it('should log an unhandled rejection and an uncaught exception, and keep the process running', () => {
    const guard = path.join(DIST_ROOT, 'app', 'bootstrap', 'processGuard.js');
    const logger = path.join(DIST_ROOT, 'app', 'framework', 'logging', 'logger.js');
    const script = `
      const { guardProcess } = await import(${JSON.stringify(guard)});
      const { createLogger, flushLogs } = await import(${JSON.stringify(logger)});
      guardProcess(createLogger('info'));
      guardProcess(createLogger('info')); // a second consumer started in the same process
      console.log('listeners ' + process.listenerCount('uncaughtException') + ' ' + process.listenerCount('unhandledRejection'));
      Promise.reject(new Error('a rejection nobody awaited'));
      setTimeout(() => { throw new Error('a throw in a timer'); }, 10);
      setTimeout(async () => { console.log('still running'); await flushLogs(500); }, 100);
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status, result.stderr).to.equal(0);
    const lines = result.stdout.split('\n').filter((line) => line.startsWith('{'));
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; err?: { message: string } });
    expect(logged.map((line) => line.err?.message)).to.include.members([
      'a rejection nobody awaited',
      'a throw in a timer',
    ]);
    expect(result.stdout).to.include('still running');
    expect(result.stdout, 'installed once per process').to.include('listeners 1 1');
  });
});
