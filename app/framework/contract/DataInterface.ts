/**
 * A data interface (`Vendor\Module\Api\Data\ThingInterface`) as a run-time value, like a contract:
 * its name, so `etc/extension_attributes.xml` can extend it, and which of its fields hold other
 * data interfaces, so the web API can find every object of a given interface in a result.
 *
 *   export interface ThingInterface { thing_id: number; parts: PartInterface[] }
 *   export const ThingInterface = defineDataInterface<ThingInterface>('Vendor\\Module\\Api\\Data\\ThingInterface', {
 *     nested: { parts: 'Vendor\\Module\\Api\\Data\\PartInterface[]' },
 *   });
 */
export interface DataInterface<T = unknown> {
  readonly kind: 'data';
  readonly name: string;
  /** Field (snake_case, as output) -> data interface name, `[]` for a list of them. */
  readonly nested: Readonly<Record<string, string>>;
  readonly __type?: T;
}

export function defineDataInterface<T>(
  name: string,
  options: { nested?: Partial<Record<keyof T & string, string>> } = {},
): DataInterface<T> {
  return Object.freeze({
    kind: 'data' as const,
    name,
    nested: Object.freeze({ ...(options.nested ?? {}) }) as Record<string, string>,
  });
}

export function isDataInterface(value: unknown): value is DataInterface {
  return typeof value === 'object' && value !== null && (value as DataInterface).kind === 'data';
}
