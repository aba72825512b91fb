/** `npm run cli -- <command>`: the framework's commands plus those modules add through di.xml. */
import 'reflect-metadata';
import { failedBuild } from '../bootstrap/startup/buildState.js';
import { runCli } from '../cli/Cli.js';

const failed = failedBuild();
if (failed) {
  process.stderr.write(`${failed}\n`);
  process.exit(1);
}

runCli(process.argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
