/**
 * Magento's `Framework\DataObject` as events use it: `getData('key')` (or `getData()` for all),
 * and magic getters, `getRecommendation()` for the key `recommendation` (`getAddedItems()` for
 * `added_items`). `Event` carries the dispatched data; `Observer` carries the same data plus `event`.
 */
export class DataObject {
  [getter: `get${string}`]: () => unknown;

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

  getData<T = unknown>(key?: string): T {
    return (key === undefined ? { ...this.data } : this.data[key]) as T;
  }
}

export class Event extends DataObject {
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

export class Observer extends DataObject {
  constructor(private readonly event: Event) {
    super({ ...event.getData<Record<string, unknown>>(), event });
  }

  getEvent(): Event {
    return this.event;
  }

  getEventName(): string {
    return this.event.getName();
  }
}

/** What an observer class implements: Magento's `ObserverInterface::execute(Observer $observer)`. */
export interface ObserverInterface {
  execute(observer: Observer): void | Promise<void>;
}
