import type { Area } from '../../framework/config/Area.js';
import type { Logger } from '../../framework/logging/logger.js';
import type { ModuleSources } from '../../framework/module/ModuleLoader.js';
import type { Clock } from '../../framework/stdlib/Clock.js';
import type { DeploymentConfigOverrides } from './DeploymentConfig.js';

/** What code (the server, the CLI, tests) may choose when it creates an Application. */
export interface ApplicationOptions extends DeploymentConfigOverrides {
  readonly area?: Area;
  /** Where modules live; defaults to `modules/` (sources) and `dist/modules/` (compiled). */
  readonly moduleSources?: readonly ModuleSources[];
  /** `etc/config.json` (or MODULE_CONFIG_FILE) by default. */
  readonly moduleConfigFile?: string;
  readonly logger?: Logger;
  /** The time as services see it (FrameworkServices.Clock); the system clock by default. */
  readonly clock?: Clock;
  /**
   * Class name -> contracts its TypeScript source `implements`, so the contracts' plugins wrap it
   * without @implementsContract; by default what setup:di:compile wrote to
   * generated/metadata/implements.json (none if it is missing).
   */
  readonly implementedContracts?: Readonly<Record<string, readonly string[]>>;
}
