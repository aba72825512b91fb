/**
 * The runtime's public API for module authors: `import { ... } from '#framework'`.
 * Everything here is stable; anything imported from deeper paths is internal.
 */
import { inject as inversifyInject, injectable, optional } from 'inversify';
import type { Contract } from './contract/Contract.js';

export { injectable, optional };
export { default as Joi } from 'joi';
export type { Knex } from 'knex';

/** `@inject(FooInterface)` or `@inject('Vendor\\Module\\Model\\Foo')` on a constructor parameter. */
export function inject(id: string | Contract): ParameterDecorator & PropertyDecorator {
  return inversifyInject(typeof id === 'string' ? id : id.name) as ParameterDecorator & PropertyDecorator;
}

export { defineContract, isContract, type Contract, type MethodSpec, type ParameterSpec } from './contract/Contract.js';
export * from './exception/index.js';
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
export { isUniqueViolation, nowTimestamp, type Dialect } from './db/dialect.js';
export type { CliCommand } from './console/CommandList.js';
export type { DataInstaller } from './setup/DataInstallerList.js';
export { StoreResolverInterface } from './store/StoreResolverInterface.js';
export { AuthorizationInterface, type AuthorizationRequest } from './webapi/AuthorizationInterface.js';
export type { Logger } from './logger.js';
export {
  BulkManagementInterface,
  OperationManagementInterface,
  type BulkToSchedule,
  type OperationRequest,
  type StoredOperation,
} from './bulk/BulkManagementInterface.js';
export { OperationStatus, type OperationStatusCode } from './bulk/OperationStatus.js';
export { encodeOperationMessage } from './bulk/OperationMessage.js';
export type { QueueConnection } from './queue/QueueConnection.js';

/** Names of the services the runtime binds, for `@inject(...)`. */
export const FrameworkServices = {
  ConnectionProvider: 'Framework\\DB\\ConnectionProvider',
  RequestContext: 'Framework\\App\\RequestContext',
  Logger: 'Framework\\Logger\\LoggerInterface',
  DeploymentConfig: 'Framework\\App\\DeploymentConfig',
  ModuleList: 'Framework\\Module\\ModuleList',
  /** ReadonlyMap of ACL resource id to {id, title, parent, module}, from every acl.xml. */
  AclResources: 'Framework\\Acl\\ResourceList',
  /** The async web API's message queue (QueueConnection: `amqp` or `db`). */
  QueueConnection: 'Framework\\MessageQueue\\QueueConnection',
} as const;
