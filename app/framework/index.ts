/**
 * The runtime's public API for module authors: `import { ... } from '#framework'`.
 * Everything here is stable; anything imported from deeper paths is internal.
 */
import { inject as inversifyInject, injectable, optional as inversifyOptional } from './di/inversify.js';
import type { Contract } from './contract/Contract.js';
import { recordInjection } from './di/constructorParameters.js';

export { injectable };
export { default as Joi } from 'joi';
export type { Knex } from 'knex';

/** `@inject(FooInterface)` or `@inject('Vendor\\Module\\Model\\Foo')` on a constructor parameter. */
export function inject(id: string | Contract): ParameterDecorator & PropertyDecorator {
  const serviceId = typeof id === 'string' ? id : id.name;
  const decorate = inversifyInject(serviceId) as ParameterDecorator & PropertyDecorator;
  return ((target: object, key: string | symbol | undefined, index?: number | PropertyDescriptor) => {
    // The ObjectManager reads the tokens it builds constructors with from this record.
    if (typeof index === 'number' && key === undefined)
      recordInjection(target as Parameters<typeof recordInjection>[0], index, { serviceId });
    (decorate as (...args: unknown[]) => void)(target, key, index);
  }) as ParameterDecorator & PropertyDecorator;
}

/** `@optional() @inject(X)`: undefined instead of an error when nothing serves X. */
export function optional(): ParameterDecorator & PropertyDecorator {
  const decorate = inversifyOptional() as ParameterDecorator & PropertyDecorator;
  return ((target: object, key: string | symbol | undefined, index?: number | PropertyDescriptor) => {
    if (typeof index === 'number' && key === undefined)
      recordInjection(target as Parameters<typeof recordInjection>[0], index, { optional: true });
    (decorate as (...args: unknown[]) => void)(target, key, index);
  }) as ParameterDecorator & PropertyDecorator;
}

export { implementsContract } from './contract/implementsContract.js';
export { defineDataInterface, type DataInterface, type DataInterfaceOptions } from './contract/DataInterface.js';
export { customAttributesSchema, type AttributeValue, type CustomAttributesOptions } from './api/CustomAttributes.js';
export {
  EventManagerInterface,
  type Event,
  type Observer,
  type ObserverInterface,
  type EventData,
  type ObserverOf,
} from './event/index.js';
export type {
  AfterPlugin,
  AroundPlugin,
  BeforePlugin,
  MethodName,
  NoSuchTargetMethod,
  PluginArguments,
  PluginMethod,
  PluginMethodsOf,
  PluginOf,
  PluginResult,
  PluginTargetNames,
  Proceed,
  Satisfies,
  TypedSubject,
} from './interception/PluginTypes.js';
export type { ExtensionAttributes } from './extension/ExtensionAttributes.js';

export { DEFER, withFastPath, type FastPath } from './contract/FastPath.js';
export { defineContract, isContract, type Contract, type MethodSpec, type ParameterSpec } from './contract/Contract.js';
export * from './exception/index.js';
export { WebapiException } from './webapi/WebapiException.js';
export {
  requestContext,
  ADMIN_STORE,
  GUEST,
  type Caller,
  type Store,
  type RequestContext,
  type RequestContextData,
} from './context/RequestContext.js';
export { ConnectionProvider } from './db/ConnectionProvider.js';
export { afterCommit } from './db/UnitOfWork.js';
export { PreparedInsert, PreparedQuery, preparedQuery } from './db/PreparedQuery.js';
export { hasRowLocks, isUniqueViolation, nowTimestamp, type Dialect } from './db/dialect.js';
export {
  collect,
  type CliCommand,
  type CommandDefinition,
  type CommandInput,
  type CommandOption,
  type ConsoleCommand,
  type Print,
} from './console/ConsoleCommand.js';
export type { DataInstaller } from './setup/DataInstallerList.js';
export type { ConfigReader } from './config/ConfigReaderList.js';
export { StoreResolverInterface } from './store/StoreResolverInterface.js';
export {
  AuthorizationInterface,
  type AuthorizationRequest,
  type CalledRequest,
} from './webapi/AuthorizationInterface.js';
export type { Logger } from './logging/logger.js';
export {
  searchCriteriaParameter,
  runSearch,
  searchCriteriaOutput,
  CONDITION_TYPES,
  MAX_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
  type SearchCriteria,
  type SearchResults,
  type SearchFields,
  type SearchFieldType,
  type SearchColumn,
  type Filter,
  type FilterGroup,
  type SortOrder,
  type ConditionType,
} from './api/search/index.js';
export { systemClock, type Clock } from './stdlib/Clock.js';
export { RefreshingValue } from './stdlib/RefreshingValue.js';
export type { AdminLoginSettings, PasswordHashingSettings } from './security/settings.js';
export {
  BulkManagementInterface,
  OperationManagementInterface,
  type BulkToSchedule,
  type OperationRequest,
  type StoredOperation,
  type OperationCompletion,
} from './bulk/BulkManagementInterface.js';
export { OperationStatus, type OperationStatusCode } from './bulk/OperationStatus.js';
export { encodeOperationMessage } from './bulk/OperationMessage.js';
export { sleep, type ConsumeOptions, type QueueConnection } from './queue/QueueConnection.js';
export type { QueueConsumer } from './queue/ConsumerList.js';
export { moduleQueueConnection, type ModuleQueueSettings } from './queue/moduleQueue.js';
export type { Delivery } from './queue/QueueConnection.js';
export {
  ServiceCallHooksInterface,
  type DescribedServiceCall,
  type HookPointList,
  type ServiceCall,
} from './webapi/ServiceCallHooks.js';
/** Steps of every route call (sync, async accept, consumer) and `/rest` request processors, added through di.xml. */
export type { RouteCall, RouteStep } from './webapi/RouteStep.js';
export { RestAnswer, type RequestProcessorInterface, type RestRequest } from './webapi/RequestProcessorInterface.js';
export type { DispatchHook } from './event/DispatchHookList.js';
/** For modules that read an etc/*.xml of their own (webhooks.xml, io_events.xml) with the runtime's strictness. */
export { ConfigError, checkElement, parseBooleanAttr, parseXmlFile, type XmlElement } from './xml/xml.js';
export { readModuleXmlFiles, type ModuleXmlFile } from './config/moduleXmlFiles.js';
export { needsGlobalCaller, type AclResource } from './config/AclConfig.js';
export type { ModuleDefinition } from './module/ModuleLoader.js';
export {
  SharedState,
  type SharedRateLimiter,
  type RateLimitOptions,
  type RedisSettings,
} from './shared/SharedState.js';

/** Names of the services the runtime binds, for `@inject(...)`. */
export const FrameworkServices = {
  ConnectionProvider: 'Framework\\DB\\ConnectionProvider',
  RequestContext: 'Framework\\App\\RequestContext',
  Logger: 'Framework\\Logger\\LoggerInterface',
  DeploymentConfig: 'Framework\\App\\DeploymentConfig',
  ModuleList: 'Framework\\Module\\ModuleList',
  /** ReadonlyMap of ACL resource id to {id, title, parent, module}, from every acl.xml. */
  AclResources: 'Framework\\Acl\\ResourceList',
  /** Framework\Event\ManagerInterface: dispatch(name, data) to the observers of etc/events.xml. */
  EventManager: 'Framework\\Event\\ManagerInterface',
  /** The current time ({@link Clock}); tests replace it through ApplicationOptions.clock. */
  Clock: 'Framework\\Stdlib\\Clock',
  /** The async web API's message queue (QueueConnection: `amqp` or `db`). */
  QueueConnection: 'Framework\\MessageQueue\\QueueConnection',
  /** prom-client's Registry that `/metrics` serves: register module metrics on it. */
  MetricsRegistry: 'Framework\\Observability\\MetricsRegistry',
  /** {@link HookPointList}: the contract methods and events hooks can attach to. */
  HookPointList: 'Framework\\Webapi\\HookPointList',
  /** {@link SharedState}: rate limits and claims shared by every process through Redis, or in memory. */
  SharedState: 'Framework\\Cache\\SharedState',
} as const;
