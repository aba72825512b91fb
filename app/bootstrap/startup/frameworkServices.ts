/**
 * What the runtime itself gives di.xml: the types it names (contracts modules serve, lists modules
 * add to) and the objects it made, under the names services `@inject` them by (FrameworkServices).
 */
import { Registry } from 'prom-client';
import { BulkManagementInterface, OperationManagementInterface } from '../../framework/bulk/BulkManagementInterface.js';
import { CommandList } from '../../framework/console/CommandList.js';
import { ConfigReaderList } from '../../framework/config/ConfigReaderList.js';
import { requestContext } from '../../framework/context/RequestContext.js';
import type { ClassResolver } from '../../framework/di/ClassResolver.js';
import { DispatchHookList } from '../../framework/event/DispatchHookList.js';
import { DISPATCH_HOOK_LIST, type EventManager } from '../../framework/event/EventManager.js';
import { EventManagerInterface } from '../../framework/event/ManagerInterface.js';
import { ConsumerList } from '../../framework/queue/ConsumerList.js';
import { DataInstallerList } from '../../framework/setup/DataInstallerList.js';
import { systemClock, type Clock } from '../../framework/stdlib/Clock.js';
import { DataObject } from '../../framework/stdlib/DataObject.js';
import { StoreResolverInterface } from '../../framework/store/StoreResolverInterface.js';
import { AuthorizationInterface } from '../../framework/webapi/AuthorizationInterface.js';
import { REQUEST_PROCESSOR_POOL, RequestProcessorPool } from '../../framework/webapi/RequestProcessorPool.js';
import { ROUTE_STEP_LIST, RouteStepList } from '../../framework/webapi/RouteStep.js';
import { ServiceCallHooksInterface } from '../../framework/webapi/ServiceCallHooks.js';
import { hookPointList } from './hookPointList.js';
import type { Configuration } from '../config/loadConfiguration.js';
import type { Resources } from './openResources.js';

/** Module configuration files read at start-up (webhooks.xml, io_events.xml): ConfigReaderList.ts. */
export const CONFIG_READER_LIST = 'Framework\\Config\\ConfigReaderList';

/** Names the runtime itself provides to di.xml. */
export const FRAMEWORK_TYPES: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  [StoreResolverInterface.name, StoreResolverInterface],
  [AuthorizationInterface.name, AuthorizationInterface],
  ['Framework\\Console\\CommandList', CommandList],
  ['Framework\\Setup\\DataInstallerList', DataInstallerList],
  [CONFIG_READER_LIST, ConfigReaderList],
  [EventManagerInterface.name, EventManagerInterface],
  [DISPATCH_HOOK_LIST, DispatchHookList],
  ['Framework\\MessageQueue\\ConsumerList', ConsumerList],
  [ServiceCallHooksInterface.name, ServiceCallHooksInterface],
  [REQUEST_PROCESSOR_POOL, RequestProcessorPool],
  [ROUTE_STEP_LIST, RouteStepList],
  [BulkManagementInterface.name, BulkManagementInterface],
  [OperationManagementInterface.name, OperationManagementInterface],
  // Magento's own data bag, for ported di.xml (`<virtualType type="Magento\Framework\DataObject">`).
  ['Magento\\Framework\\DataObject', DataObject],
]);

/** Where /metrics reads from; modules add their own metrics to it (FrameworkServices.MetricsRegistry). */
export const METRICS_REGISTRY = 'Framework\\Observability\\MetricsRegistry';

/** The objects the runtime made, by the name the container hands each out under. */
export function frameworkInstances(
  { logger, config, modules, acl }: Configuration,
  { connection, queue, shared }: Resources,
  made: { readonly eventManager: EventManager; readonly resolver: ClassResolver; readonly clock?: Clock },
): Map<string, unknown> {
  return new Map<string, unknown>([
    ['Framework\\DB\\ConnectionProvider', connection],
    ['Framework\\App\\RequestContext', requestContext],
    ['Framework\\Logger\\LoggerInterface', logger],
    ['Framework\\App\\DeploymentConfig', config],
    ['Framework\\Module\\ModuleList', modules],
    ['Framework\\Acl\\ResourceList', acl],
    [EventManagerInterface.name, made.eventManager],
    ['Framework\\Stdlib\\Clock', made.clock ?? systemClock],
    ['Framework\\MessageQueue\\QueueConnection', queue],
    [METRICS_REGISTRY, new Registry()],
    ['Framework\\Webapi\\HookPointList', hookPointList(modules, made.resolver)],
    ['Framework\\Cache\\SharedState', shared],
  ]);
}
