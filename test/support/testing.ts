/**
 * `dispensary-runtime/testing` (and `#testing` inside this repository): what a module's own tests
 * need to run against the real runtime, as the project's tests do. A module package's test:
 *
 *   import { TestApp, withModulePackage } from 'dispensary-runtime/testing';
 *   const t = await TestApp.start({ moduleSources: withModulePackage(packageRoot) });
 *
 * and its .mocharc.json requires `dispensary-runtime/testing/setup` (reflect-metadata, quiet logs,
 * a module config of the run's own). See docs/module-packages.md.
 */
import path from 'node:path';
import { runtimeVersion } from '../../app/bootstrap/config/moduleLocations.js';
import type { ModuleSources } from '../../app/framework/module/ModuleLoader.js';
import { PROJECT_MODULE_SOURCES } from './modules.js';

export { TestApp, type TestAppOptions, type TokenOptions } from './testApp.js';
export type { InjectAgent, InjectAgentOptions, InjectRequest, InjectResponse } from './inject.js';
export { createTestDatabase, type TestDatabase } from './database.js';
export {
  PROJECT_MODULES,
  PROJECT_MODULE_SOURCES,
  moduleConfigFor,
  writeModuleConfig,
  type ModuleSelection,
} from './modules.js';
export type { ModuleSources } from '../../app/framework/module/ModuleLoader.js';

/** One module package's folder (its package.json declares the module) as a module source. */
export function modulePackageSource(packageDir: string): ModuleSources {
  const dir = path.resolve(packageDir);
  return { modulesDir: dir, codeDir: dir, package: { runtimeVersion: runtimeVersion() } };
}

/** The runtime's own modules plus the module package in `packageDir`, which is enabled. */
export function withModulePackage(packageDir: string): ModuleSources[] {
  return [PROJECT_MODULE_SOURCES, modulePackageSource(packageDir)];
}
