/**
 * Start-up phase 3, the container: every class the configuration names is imported (so a name
 * that does not resolve fails now, not on the first request), the object manager binds them with
 * the runtime's own objects, observers are connected and checked, and the data interfaces that
 * extension attributes extend are loaded. The module configuration files modules read themselves
 * (ConfigReaderList: webhooks.xml, io_events.xml) are read and checked here too.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Registry } from 'prom-client';
import { ClassResolver } from '../../framework/di/ClassResolver.js';
import { isContract } from '../../framework/contract/Contract.js';
import { ObjectManager } from '../../framework/di/ObjectManager.js';
import { EventManager } from '../../framework/event/EventManager.js';
import { validateObservers } from '../../framework/event/validateObservers.js';
import { ExtensionAttributesProcessor } from '../../framework/extension/ExtensionAttributes.js';
import { loadDataInterfaces } from '../../framework/extension/loadDataInterfaces.js';
import type { ApplicationOptions } from '../config/ApplicationOptions.js';
import type { ConfigReaderList } from '../../framework/config/ConfigReaderList.js';
import { CONFIG_READER_LIST, FRAMEWORK_TYPES, frameworkInstances, METRICS_REGISTRY } from './frameworkServices.js';
import { PROJECT_ROOT } from '../config/paths.js';
import { preloadClasses, referencedNames } from './preloadClasses.js';
import type { Configuration } from '../config/loadConfiguration.js';
import type { Resources } from './openResources.js';

export interface Container {
  readonly resolver: ClassResolver;
  readonly objectManager: ObjectManager;
  readonly extensionAttributes: ExtensionAttributesProcessor;
  /** Where /metrics reads from; modules add their own metrics to it (FrameworkServices.MetricsRegistry). */
  readonly metricsRegistry: Registry;
  /** A service contract's description (defineContract's `description`), for the schema's tags. */
  readonly describeService: (serviceClass: string) => string | undefined;
}

export async function buildContainer(
  configuration: Configuration,
  resources: Resources,
  options: Pick<ApplicationOptions, 'clock' | 'implementedContracts'>,
): Promise<Container> {
  const { modules, diConfig, webapiRoutes, events, extensionAttributes: extensionConfig } = configuration;
  const eventManager = new EventManager(events);
  const resolver = new ClassResolver(modules, FRAMEWORK_TYPES);
  const instances = frameworkInstances(configuration, resources, { eventManager, resolver, clock: options.clock });
  const names = referencedNames(diConfig, webapiRoutes, events, FRAMEWORK_TYPES.keys());
  await preloadClasses(names, resolver, diConfig, instances);

  const implemented = options.implementedContracts ?? readImplementedContracts();
  const objectManager = new ObjectManager(diConfig, resolver, instances, implemented);
  objectManager.bindAll(names.keys());
  eventManager.connect(objectManager);
  validateObservers(events, resolver);
  // Module configuration files modules read themselves (webhooks.xml, io_events.xml): a mistake stops start-up here.
  objectManager.get<ConfigReaderList>(CONFIG_READER_LIST).readAll();
  const dataInterfaces = await loadDataInterfaces(extensionConfig.referencedNames(), resolver);
  const extensionAttributes = new ExtensionAttributesProcessor(extensionConfig, dataInterfaces);
  const metricsRegistry = objectManager.get<Registry>(METRICS_REGISTRY);
  const describeService = (serviceClass: string) => {
    const value = resolver.has(serviceClass) ? resolver.get(serviceClass) : undefined;
    return isContract(value) ? value.description : undefined;
  };
  return { resolver, objectManager, extensionAttributes, metricsRegistry, describeService };
}

/** generated/metadata/implements.json, written by setup:di:compile (`npm run build`); empty if absent. */
function readImplementedContracts(): Record<string, string[]> {
  const file = path.join(PROJECT_ROOT, 'generated', 'metadata', 'implements.json');
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
}
