import type { Application, ApplicationOptions } from '../../bootstrap/Application.js';
import type { Area } from '../../framework/config/Area.js';
import type { Logger } from '../../framework/logging/logger.js';

/** What a framework command of the command line works with. */
export interface CliContext {
  /** The `global` area's application. */
  readonly app: Application;
  readonly options: ApplicationOptions;
  readonly logger: Logger;
  /** An application of another area, closed when the command line ends. */
  readonly openApp: (area: Area) => Promise<Application>;
}
