import { ConfigError } from '../xml/xml.js';
import { isDataInterface, type DataInterface } from '../contract/DataInterface.js';
import type { ClassResolver } from '../di/ClassResolver.js';

/** The data interfaces etc/extension_attributes.xml names; each must be defined with defineDataInterface. */
export async function loadDataInterfaces(
  names: ReadonlyMap<string, string>,
  resolver: ClassResolver,
): Promise<Map<string, DataInterface>> {
  const interfaces = new Map<string, DataInterface>();
  for (const [name, file] of names) {
    const value = await resolver.load(name, file);
    if (!isDataInterface(value))
      throw new ConfigError(`${file}: ${name} is not a data interface (export it with defineDataInterface)`);
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
