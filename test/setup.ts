// Loaded by mocha before any test (see .mocharc.json).
import 'reflect-metadata';
import { writeModuleConfig } from './support/modules.js';

process.env.LOG_LEVEL ??= 'silent';

// The suite runs with the project's modules, whatever else sits in modules/ and whatever
// etc/config.json says: every Application, CLI run and server process it starts reads this file
// unless a test chooses other modules (test/support/modules.ts).
process.env.MODULE_CONFIG_FILE = writeModuleConfig();
