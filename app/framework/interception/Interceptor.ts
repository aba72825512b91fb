/**
 * Running a composed chain (collecting it is PluginList.ts). Each method's chain is turned into
 * nested closures once, at start-up; a call then only walks arrays. Plugin methods may be sync or
 * async: a returned promise is awaited, a plain value is used as it is.
 */
import type { PluginLevel } from './PluginList.js';

export type Invoke = (subject: object, args: unknown[]) => Promise<unknown>;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}

/**
 * Composes the levels into one function. `original` runs the target method itself.
 * before: a non-null result replaces the arguments (an array as the list, anything else as the
 * first and only argument, as Magento's `(array)` cast does).
 */
export function composeChain(levels: readonly PluginLevel[], original: Invoke): Invoke {
  let next: Invoke = original;
  for (let i = levels.length - 1; i >= 0; i--) next = composeLevel(levels[i]!, next);
  return next;
}

function composeLevel(level: PluginLevel, inner: Invoke): Invoke {
  const { before, around, after } = level;
  return async (subject, args) => {
    for (const ref of before) {
      let replaced = ref.fn.call(ref.plugin.instance(), subject, ...args);
      if (isThenable(replaced)) replaced = await replaced;
      if (replaced !== null && replaced !== undefined) args = Array.isArray(replaced) ? replaced : [replaced];
    }
    let result: unknown;
    if (around) {
      const proceed = (...proceedArgs: unknown[]) => inner(subject, proceedArgs);
      result = around.fn.call(around.plugin.instance(), subject, proceed, ...args);
    } else {
      result = inner(subject, args);
    }
    if (isThenable(result)) result = await result;
    for (const ref of after) {
      result = ref.fn.call(ref.plugin.instance(), subject, result, ...args);
      if (isThenable(result)) result = await result;
    }
    return result;
  };
}

/**
 * Magento generates an `Interceptor` subclass per intercepted class; so do we. Intercepted
 * methods enter the chain, so a call through `this` inside the class is intercepted too, as in
 * Magento.
 */
export function createInterceptorClass<T extends new (...args: never[]) => object>(
  target: T,
  chains: ReadonlyMap<string, readonly PluginLevel[]>,
): T {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const Base = target as unknown as new (...args: any[]) => object;
  const Interceptor = class extends Base {};
  Object.defineProperty(Interceptor, 'name', { value: `${target.name}\\Interceptor` });
  for (const [method, levels] of chains) {
    const originalMethod = target.prototype[method] as (...args: unknown[]) => unknown;
    const run = composeChain(levels, async (subject, args) => originalMethod.apply(subject, args));
    Object.defineProperty(Interceptor.prototype, method, {
      value: function intercepted(this: object, ...args: unknown[]) {
        return run(this, args);
      },
      writable: true,
      configurable: true,
    });
  }
  return Interceptor as unknown as T;
}
