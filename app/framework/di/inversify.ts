/**
 * inversify, the container library, as the framework imports it. `npm run build` replaces this
 * file's compiled copy (dist/app/framework/di/inversify.js) with one module that bundles inversify
 * and its @inversifyjs packages (app/bin/build.mjs, esbuild): they ship as some 250 small ES modules,
 * and loading them was about 0.15 s of CPU in every process that starts the application (server,
 * CLI, consumer). From the sources (tsx: the knex CLI) it is the plain re-export below.
 *
 * A module that decorates its classes with inversify's own decorators, from the package itself,
 * still works with the bundled copy: inversify keeps its metadata under string keys in
 * reflect-metadata's one registry (reflect-metadata stays outside the bundle).
 */
export { Container, inject, injectable, optional, type ResolutionContext } from 'inversify';
export { getClassMetadata } from '@inversifyjs/core';
