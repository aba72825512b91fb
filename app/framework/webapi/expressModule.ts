/**
 * express, loaded when first used rather than when imported: the CLI and the queue consumers start
 * the application without serving HTTP, and express with body-parser was about 60 ms of CPU of each
 * such start. A synchronous require (express is CommonJS; require keeps it once loaded), so that
 * `Application.http()` stays synchronous for its callers.
 */
import { createRequire } from 'node:module';
import type express from 'express';

const require = createRequire(import.meta.url);

export function expressModule(): typeof express {
  return require('express') as typeof express;
}
