/**
 * Start-up phase 3, the container: every class the configuration names is imported (so a name
 * that does not resolve fails now, not on the first request), the object manager binds them with
 * the runtime's own objects, observers are connected and checked, and the data interfaces that
 * extension attributes extend are loaded. The module configuration files modules read themselves
 * (ConfigReaderList: webhooks.xml, io_events.xml) are read and checked here too.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ClassResolver } from '../framework/di/ClassResolver.js';
import { ObjectManager } from '../framework/di/ObjectManager.js';
import { EventManager } from '../framework/event/EventManager.js';
import { validateObservers } from '../framework/event/validateObservers.js';
import { ExtensionAttributesProcessor } from '../framework/extension/ExtensionAttributes.js';
import { loadDataInterfaces } from '../framework/extension/loadDataInterfaces.js';
import type { ApplicationOptions } from './ApplicationOptions.js';
import type { ConfigReaderList } from '../framework/config/ConfigReaderList.js';
import { CONFIG_READER_LIST, FRAMEWORK_TYPES, frameworkInstances } from './frameworkServices.js';
import { PROJECT_ROOT } from './paths.js';
import { preloadClasses, referencedNames } from './preloadClasses.js';
import type { Configuration } from './loadConfiguration.js';
import type { Resources } from './openResources.js';

export interface Container {
  readonly resolver: ClassResolver;
  readonly objectManager: ObjectManager;
  readonly extensionAttributes: ExtensionAttributesProcessor;
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
  return { resolver, objectManager, extensionAttributes };
}

/** generated/metadata/implements.json, written by setup:di:compile (`npm run build`); empty if absent. */
function readImplementedContracts(): Record<string, string[]> {
  const file = path.join(PROJECT_ROOT, 'generated', 'metadata', 'implements.json');
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
}
