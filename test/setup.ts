// Loaded by mocha before any test (see .mocharc.json).
import { appendFileSync } from 'node:fs';
import 'reflect-metadata';
import { writeModuleConfig } from './support/modules.js';

process.env.LOG_LEVEL ??= 'silent';
// Admin passwords hash at scrypt N=2^10 in tests (a few ms) unless a test asks for a cost: at the
// deployment default, 2^17, each hash is ~0.5 s of CPU on libuv's threads, and the suite makes
// dozens. Every Application, CLI run and server process the suite starts inherits it. The default
// itself has its own test (test/modules/Integration/adminLogin.http.test.ts, "at the default cost").
process.env.PASSWORD_SCRYPT_COST ??= '1024';

// The suite runs with the project's modules, whatever else sits in modules/ and whatever
// etc/config.json says: every Application, CLI run and server process it starts reads this file
// unless a test chooses other modules (test/support/modules.ts).
process.env.MODULE_CONFIG_FILE = writeModuleConfig();

/**
 * Under `npm test`'s parallel run (TEST_DURATIONS names a file) each worker appends each file's
 * seconds, from the end of its previous file (or its own start) to this file's end, loading
 * included: test/run.ts starts the longest files first next time.
 */
let since = performance.now();
export const mochaHooks = {
  afterAll(this: Mocha.Context): void {
    const log = process.env.TEST_DURATIONS;
    const file = this.test?.parent?.suites.map((suite) => suite.file).find(Boolean);
    if (log && file) appendFileSync(log, `${JSON.stringify([file, (performance.now() - since) / 1000])}\n`);
    since = performance.now();
  },
};
