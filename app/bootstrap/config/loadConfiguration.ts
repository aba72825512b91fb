/**
 * Start-up phase 1, the configuration: the deployment settings (the environment, under what code
 * sets), the modules in load order, and each etc/*.xml merged over them. Reads files only; a
 * mistake in any of them stops start-up here, naming the file.
 */
import { readAclConfig, type AclResource } from '../../framework/config/AclConfig.js';
import type { Area } from '../../framework/config/Area.js';
import { readDiConfig, type DiConfig } from '../../framework/config/DiConfig.js';
import { readWebapiConfig, type RouteDefinition } from '../../framework/config/WebapiConfig.js';
import { readEventConfig, type EventConfig } from '../../framework/event/EventConfig.js';
import {
  readExtensionAttributesConfig,
  type ExtensionAttributesConfig,
} from '../../framework/extension/ExtensionAttributesConfig.js';
import { createLogger, type Logger } from '../../framework/logging/logger.js';
import {
  discoverModules,
  orderModules,
  readModuleConfig,
  type ModuleDefinition,
} from '../../framework/module/ModuleLoader.js';
import type { ApplicationOptions } from './ApplicationOptions.js';
import { logLevel, readDeploymentConfig, type DeploymentConfig } from './DeploymentConfig.js';
import { moduleConfigFileOf, moduleSourcesOf } from './moduleLocations.js';

export interface Configuration {
  /** `webapi_rest` for the server, `global` for the CLI: which di.xml and events.xml apply. */
  readonly area: Area;
  readonly logger: Logger;
  readonly config: DeploymentConfig;
  /** Every module of the module folders, enabled or not. */
  readonly installedModules: readonly ModuleDefinition[];
  /** The enabled modules, each after those it names in <sequence>. */
  readonly modules: readonly ModuleDefinition[];
  readonly diConfig: DiConfig;
  /** etc/webapi.xml's routes, not yet checked against their contracts (none outside `webapi_rest`). */
  readonly webapiRoutes: readonly RouteDefinition[];
  readonly acl: ReadonlyMap<string, AclResource>;
  readonly events: EventConfig;
  readonly extensionAttributes: ExtensionAttributesConfig;
}

export function loadConfiguration(options: ApplicationOptions): Configuration {
  const area = options.area ?? 'webapi_rest';
  const logger = options.logger ?? createLogger(logLevel('info'));
  const config = readDeploymentConfig(options);
  const installedModules = discoverModules(moduleSourcesOf(options));
  const modules = orderModules(installedModules, readModuleConfig(moduleConfigFileOf(options)));
  return {
    area,
    logger,
    config,
    installedModules,
    modules,
    diConfig: readDiConfig(modules, area),
    webapiRoutes: area === 'webapi_rest' ? readWebapiConfig(modules) : [],
    acl: readAclConfig(modules),
    events: readEventConfig(modules, area),
    extensionAttributes: readExtensionAttributesConfig(modules),
  };
}
