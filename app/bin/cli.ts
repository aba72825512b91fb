/** `npm run cli -- <command>`: the framework's commands plus those modules add through di.xml. */
import 'reflect-metadata';
import { runCli } from '../cli/Cli.js';

runCli(process.argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
