/**
 * The shapes of plugin methods, as types: what `setup:di:compile` checks every plugin method
 * against (see app/framework/compile), and what a plugin author may write its parameters with.
 * They follow what the runtime does (Interceptor.ts): a `before` method gets the subject and the
 * target's arguments and returns nothing (keep them) or the new argument list; an `around` method
 * gets `proceed` with the target's own signature; an `after` method gets the settled result (and
 * the arguments) and returns a result of the same type. A synchronous target stays synchronous:
 * its plugins may not answer promises.
 */

/** The method names of T (keys whose value is a function). */
export type MethodName<T> = {
  [K in keyof T & string]: T[K] extends (...args: never[]) => unknown ? K : never;
}[keyof T & string];

type Target<T, M extends MethodName<T>> = T[M] extends (...args: infer A) => infer R ? { args: A; result: R } : never;

/** The arguments of T::M, as a tuple. */
export type PluginArguments<T, M extends MethodName<T>> = Target<T, M>['args'];
/** What T::M answers, settled (what an `after` plugin receives). */
export type PluginResult<T, M extends MethodName<T>> = Awaited<Target<T, M>['result']>;
/** `proceed` of an `around` plugin on T::M: the method's own signature. */
export type Proceed<T, M extends MethodName<T>> = (...args: Target<T, M>['args']) => Target<T, M>['result'];

/** A plugin of a synchronous method answers plainly; one of an async method may answer either way. */
type Answer<R, V> = R extends PromiseLike<unknown> ? V | Promise<V> : V;

export type BeforePlugin<T, M extends MethodName<T>> = (
  subject: T,
  ...args: PluginArguments<T, M>
) => Answer<Target<T, M>['result'], void | null | undefined | PluginArguments<T, M>>;

export type AroundPlugin<T, M extends MethodName<T>> = (
  subject: T,
  proceed: Proceed<T, M>,
  ...args: PluginArguments<T, M>
) => Answer<Target<T, M>['result'], PluginResult<T, M>>;

export type AfterPlugin<T, M extends MethodName<T>> = (
  subject: T,
  result: PluginResult<T, M>,
  ...args: PluginArguments<T, M>
) => Answer<Target<T, M>['result'], PluginResult<T, M>>;

/** Every plugin method a class may have for T: `beforeX`, `aroundX`, `afterX` per method `x` of T. */
export type PluginOf<T> = { [M in MethodName<T> as `before${Capitalize<M>}`]?: BeforePlugin<T, M> } & {
  [M in MethodName<T> as `around${Capitalize<M>}`]?: AroundPlugin<T, M>;
} & { [M in MethodName<T> as `after${Capitalize<M>}`]?: AfterPlugin<T, M> };

/** What a plugin method for a method T lacks is checked against: nothing fits it, and its name says why. */
export interface NoSuchTargetMethod<T, M extends string> {
  readonly __target: T;
  readonly __missingMethod: M;
}

/** The shape the plugin method `<kind><M>` must have on T (what setup:di:compile checks one method against). */
export type PluginMethod<T, Kind extends 'before' | 'around' | 'after', M extends string> =
  M extends MethodName<T>
    ? Kind extends 'before'
      ? BeforePlugin<T, M>
      : Kind extends 'around'
        ? AroundPlugin<T, M>
        : AfterPlugin<T, M>
    : NoSuchTargetMethod<T, M>;

/** The target methods a plugin class names (`afterAddItems` -> `addItems`), as the runtime reads them. */
export type PluginTargetNames<P> = {
  [K in keyof P & string]: P[K] extends (...args: never[]) => unknown
    ? K extends `${'before' | 'around' | 'after'}${infer M}`
      ? M extends Capitalize<M>
        ? M extends ''
          ? never
          : Uncapitalize<M>
        : never
      : never
    : never;
}[keyof P & string];

/**
 * `'typed'` when a plugin method's subject parameter has a type, else `Message`: as Magento's
 * InterfaceValidator refuses an untyped `$subject`, a plugin names the type it wraps, not `unknown`
 * or `any`. setup:di:compile checks `Satisfies<TypedSubject<...>, 'typed'>`, so the compiler's
 * message quotes `Message`.
 */
export type TypedSubject<F, Message extends string> = F extends (subject: infer S, ...args: never[]) => unknown
  ? unknown extends S
    ? Message
    : 'typed'
  : Message;

/** Only the `beforeX/aroundX/afterX` members of a plugin class (what the runtime calls). */
export type PluginMethodsOf<P> = Pick<
  P,
  { [K in keyof P & string]: K extends `${'before' | 'around' | 'after'}${string}` ? K : never }[keyof P & string]
>;

/**
 * `Satisfies<Expected, Actual>` fails to compile unless Actual is assignable to Expected; the
 * compiler's message then names both. The generated checks are made of these.
 */
export type Satisfies<Expected, Actual extends Expected> = Actual;
