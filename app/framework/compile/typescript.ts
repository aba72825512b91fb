/**
 * TypeScript for setup:di:compile's readers, by require, not import: an ESM import of this CommonJS
 * package has Node scan its 9 MB for export names (0.5 s of every setup:di:compile), and in
 * app/bin/build.mjs, which has required it already for tsc, require answers the loaded copy.
 */
import { createRequire } from 'node:module';
import type TypeScript from 'typescript';

export const ts: typeof TypeScript = createRequire(import.meta.url)('typescript');
