import { ConfigError } from '../xml/xml.js';
import { isDataInterface, type DataInterface } from '../contract/DataInterface.js';
import { isClass, type ClassResolver } from '../di/ClassResolver.js';

/** The data interfaces etc/extension_attributes.xml names; each must be defined with defineDataInterface. */
export async function loadDataInterfaces(
  names: ReadonlyMap<string, string>,
  resolver: ClassResolver,
): Promise<Map<string, DataInterface>> {
  const interfaces = new Map<string, DataInterface>();
  for (const [name, file] of names) {
    let value = await resolver.load(name, file);
    // A data model (Magento's Model\Data\Thing, the preference for its Api\Data\ThingInterface) stands for the
    // data interface it names in `static dataInterface`.
    if (isClass(value) && isDataInterface((value as { dataInterface?: unknown }).dataInterface))
      value = (value as { dataInterface?: unknown }).dataInterface;
    if (!isDataInterface(value)) {
      throw new ConfigError(
        `${file}: ${name} is not a data interface (export it with defineDataInterface, or give its class a static dataInterface)`,
      );
    }
    interfaces.set(name, value);
  }
  // Data interfaces nested in those, so output can be followed into them.
  for (const data of [...interfaces.values()]) {
    for (const nested of Object.values(data.nested)) {
      const nestedName = nested.replace(/\[\]$/, '');
      if (interfaces.has(nestedName)) continue;
      const value = await resolver.load(nestedName, `${data.name} (nested field)`);
      if (isDataInterface(value)) interfaces.set(nestedName, value);
    }
  }
  return interfaces;
}
