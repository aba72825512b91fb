import type Joi from 'joi';
import type { DataInterface } from './DataInterface.js';

/**
 * TypeScript interfaces vanish at run time, so every service contract also exports a value of the
 * same name that describes it: its Magento-style name, its methods, and each method's parameters
 * with a joi schema. Input mapping, validation, plugin checks and the API schema all read this.
 *
 *   export interface FooInterface { get(id: number): Promise<Foo> }
 *   export const FooInterface = defineContract<FooInterface>('Vendor\\Module\\Api\\FooInterface', {
 *     get: { params: [{ name: 'id', schema: Joi.number().integer().required() }] },
 *   });
 */
export interface ParameterSpec {
  /** camelCase name; the web API also accepts its snake_case spelling. */
  readonly name: string;
  /** Validates and normalises the value; `.required()` makes the parameter mandatory. */
  readonly schema: Joi.Schema;
  /** Other input keys that also fill this parameter (e.g. the query key `id` for `ids`). */
  readonly aliases?: readonly string[];
  readonly description?: string;
  /**
   * The data interface this parameter carries (its schema must be a joi object): its extension
   * attributes (etc/extension_attributes.xml) are accepted and type-checked under `extension_attributes`.
   */
  readonly dataInterface?: DataInterface | string;
}

export interface MethodSpec {
  readonly params: readonly ParameterSpec[];
  readonly description?: string;
  /** The data interface the method answers (a list of them: its name + `[]`), for extension attributes in REST output and the schema. */
  readonly returns?: DataInterface | string;
  /**
   * Whether the web API runs the call inside the request's unit of work (one transaction).
   * Omitted: writes (POST, PUT, DELETE, PATCH) do and reads (GET) do not. `false` for a method
   * that must not hold a pooled connection while it works, such as a login that hashes a
   * password: its queries then run on the pool one by one, and it opens its own short
   * transaction where several writes must commit together.
   */
  readonly transactional?: boolean;
}

export type MethodSpecs<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: MethodSpec;
};

export interface Contract<T = unknown> {
  readonly kind: 'contract';
  readonly name: string;
  /** What the service is (Magento: its interface's doc block); the schema route's tag description. */
  readonly description?: string;
  readonly methods: Readonly<Record<string, MethodSpec>>;
  /** Phantom field that carries T for typed look-ups; never set at run time. */
  readonly __type?: T;
}

export function defineContract<T>(
  name: string,
  methods: MethodSpecs<T>,
  options: { readonly description?: string } = {},
): Contract<T> {
  return Object.freeze({
    kind: 'contract' as const,
    name,
    ...(options.description !== undefined ? { description: options.description } : {}),
    methods: Object.freeze({ ...(methods as Record<string, MethodSpec>) }),
  });
}

export function isContract(value: unknown): value is Contract {
  return typeof value === 'object' && value !== null && (value as Contract).kind === 'contract';
}
