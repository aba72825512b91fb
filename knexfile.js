// knex's CLI looks for knexfile.js before knexfile.ts and, in an ESM package, import()s it; Node
// cannot import TypeScript, so this file has tsx compile knexfile.ts and the sources it reaches,
// for this import only (the service itself runs the compiled code in dist/).
import { tsImport } from 'tsx/esm/api';

const { default: config } = await tsImport('./knexfile.ts', import.meta.url);
export default config;
