// knex's CLI looks for knexfile.js before knexfile.ts and, in an ESM package, import()s it; Node
// cannot import TypeScript, so this file has tsx compile knexfile.ts and the sources it reaches,
// for this import only (the service itself runs the compiled code in dist/). The package's own
// imports (`#framework` and the others) resolve to those sources too (app/bin/sourceConditions.mjs).
import { register } from 'node:module';
import { tsImport } from 'tsx/esm/api';

register('./app/bin/sourceConditions.mjs', import.meta.url);
const { default: config } = await tsImport('./knexfile.ts', import.meta.url);
export default config;
