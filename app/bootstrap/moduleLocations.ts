import path from 'node:path';
import type { ModuleSources } from '../framework/module/ModuleLoader.js';
import { moduleConfigFile } from './DeploymentConfig.js';
import { DIST_ROOT, PROJECT_ROOT } from './paths.js';

/** Where modules live unless told otherwise: `modules/` (sources) and `dist/modules/` (compiled). */
export function moduleSourcesOf(options: {
  readonly moduleSources?: readonly ModuleSources[];
}): readonly ModuleSources[] {
  return (
    options.moduleSources ?? [
      { modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') },
    ]
  );
}

/** The file that enables modules: the option, else MODULE_CONFIG_FILE, else `etc/config.json`. */
export function moduleConfigFileOf(options: { readonly moduleConfigFile?: string }): string {
  return options.moduleConfigFile ?? moduleConfigFile();
}
