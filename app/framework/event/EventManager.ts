import { Event, Observer, type ObserverInterface } from './Event.js';
import type { EventConfig, ObserverDeclaration } from './EventConfig.js';
import type { EventManagerInterface } from './ManagerInterface.js';

/** Builds observer instances: shared ones once, `shared="false"` ones afresh for each dispatch. */
export interface ObserverFactory {
  get(name: string): unknown;
  create(name: string): unknown;
}

export class EventManager implements EventManagerInterface {
  private factory?: ObserverFactory;

  constructor(readonly config: EventConfig) {}

  /** The object manager is built after the manager it holds: connected once both exist. */
  connect(factory: ObserverFactory): void {
    this.factory = factory;
  }

  async dispatch(eventName: string, data: Record<string, unknown> = {}): Promise<void> {
    const observers = this.config.observersOf(eventName.toLowerCase());
    if (observers.length === 0) return;
    const event = new Event(eventName.toLowerCase(), data);
    const observer = new Observer(event);
    for (const declaration of observers) await this.instance(declaration).execute(observer);
  }

  private instance(declaration: ObserverDeclaration): ObserverInterface {
    if (!this.factory) throw new Error('EventManager.dispatch() before the object manager was built');
    const name = declaration.instance!;
    return (declaration.shared === false ? this.factory.create(name) : this.factory.get(name)) as ObserverInterface;
  }
}
