/**
 * Magento's `Framework\DataObject` as events use it: `getData('key')` (or `getData()` for all),
 * and magic getters, `getRecommendation()` for the key `recommendation` (`getAddedItems()` for
 * `added_items`). `Event` carries the dispatched data; `Observer` carries the same data plus `event`.
 */
export class DataObject<D extends object = Record<string, unknown>> {
  [getter: `get${string}`]: () => unknown;
  /** Phantom field that carries D, so an Observer<A> fits where an Observer<B> is expected only if A fits B. */
  declare readonly __data?: D;

  constructor(private readonly data: Record<string, unknown>) {
    return new Proxy(this, {
      get(target, key, receiver) {
        if (typeof key === 'string' && !(key in target) && /^get[A-Z]/.test(key)) {
          const camel = key.charAt(3).toLowerCase() + key.slice(4);
          const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
          return () => (snake in target.data ? target.data[snake] : target.data[camel]);
        }
        return Reflect.get(target, key, receiver);
      },
    });
  }

  /** All the data; with a key, its value, typed by the event's declared data (`Api/events.ts`). */
  getData(): D;
  getData<K extends keyof D & string>(key: K): D[K];
  /** Untyped reading, for data no module declares. */
  getData<T = unknown>(key: string): T;
  getData(key?: string): unknown {
    return key === undefined ? { ...this.data } : this.data[key];
  }
}

export class Event<D extends object = Record<string, unknown>> extends DataObject<D> {
  constructor(
    private readonly eventName: string,
    data: Record<string, unknown>,
  ) {
    super(data);
  }

  getName(): string {
    return this.eventName;
  }
}

export class Observer<D extends object = Record<string, unknown>> extends DataObject<D & { event: Event<D> }> {
  constructor(private readonly event: Event<D>) {
    super({ ...(event.getData() as Record<string, unknown>), event });
  }

  getEvent(): Event<D> {
    return this.event;
  }

  getEventName(): string {
    return this.event.getName();
  }
}

/** What an observer class implements: Magento's `ObserverInterface::execute(Observer $observer)`. */
export interface ObserverInterface<D extends object = Record<string, unknown>> {
  execute(observer: Observer<D>): void | Promise<void>;
}

/**
 * The data an event carries, as the dispatching module declares it once in `Api/events.ts`
 * (`export interface Events { 'event_name': { ... } }`); an event nobody declares carries
 * anything (`any`), and its observers are checked only for their shape.
 */
export type EventData<Events, Name extends string> = Name extends keyof Events
  ? Events[Name] extends object
    ? Events[Name]
    : never
  : // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any;

/** What `setup:di:compile` checks an observer class against: execute() accepts an Observer of the event's data. */
export type ObserverOf<D> = { execute: (observer: Observer<D & object>) => void | Promise<void> };
