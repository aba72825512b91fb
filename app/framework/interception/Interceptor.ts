/**
 * Running a composed chain (collecting it is PluginList.ts). Each method's chain is turned into
 * nested closures once, at start-up; a call then only walks arrays. Plugin methods may be sync or
 * async: a returned promise is awaited, a plain value is used as it is, so a synchronous method
 * with synchronous plugins still answers synchronously.
 */
import type { PluginLevel } from './PluginList.js';

/** A chain answers synchronously while every step does; from the first promise on, a promise. */
export type Invoke = (subject: object, args: unknown[]) => unknown;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}

/** Calls `next` with the value, at once for a plain value, after it settles for a promise. */
function then(value: unknown, next: (settled: unknown) => unknown): unknown {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
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
  return (subject, initialArgs) => {
    const runAfter = (index: number, result: unknown, args: unknown[]): unknown => {
      if (index === after.length) return result;
      const ref = after[index]!;
      return then(ref.fn.call(ref.plugin.instance(), subject, result, ...args), (next) =>
        runAfter(index + 1, next, args),
      );
    };
    const runCore = (args: unknown[]): unknown => {
      const result = around
        ? around.fn.call(
            around.plugin.instance(),
            subject,
            (...proceedArgs: unknown[]) => inner(subject, proceedArgs),
            ...args,
          )
        : inner(subject, args);
      return then(result, (settled) => runAfter(0, settled, args));
    };
    const runBefore = (index: number, args: unknown[]): unknown => {
      if (index === before.length) return runCore(args);
      const ref = before[index]!;
      return then(ref.fn.call(ref.plugin.instance(), subject, ...args), (replaced) =>
        runBefore(
          index + 1,
          replaced === null || replaced === undefined ? args : Array.isArray(replaced) ? replaced : [replaced],
        ),
      );
    };
    return runBefore(0, initialArgs);
  };
}

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as FunctionConstructor;

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
    const run = composeChain(levels, (subject, args) => originalMethod.apply(subject, args));
    // An async method stays one: it always answers a promise, and a plugin's throw rejects it.
    // A synchronous method stays synchronous as long as its plugins are.
    const intercepted =
      originalMethod instanceof AsyncFunction
        ? async function intercepted(this: object, ...args: unknown[]) {
            return run(this, args);
          }
        : function intercepted(this: object, ...args: unknown[]) {
            return run(this, args);
          };
    Object.defineProperty(Interceptor.prototype, method, {
      value: intercepted,
      writable: true,
      configurable: true,
    });
  }
  return Interceptor as unknown as T;
}
