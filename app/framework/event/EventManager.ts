import { Event, Observer, type ObserverInterface } from './Event.js';
import type { EventConfig, ObserverDeclaration } from './EventConfig.js';
import type { EventManagerInterface } from './ManagerInterface.js';
import type { DispatchHookList } from './DispatchHookList.js';

export const DISPATCH_HOOK_LIST = 'Framework\\Event\\DispatchHookList';

/** Builds observer instances: shared ones once, `shared="false"` ones afresh for each dispatch. */
export interface ObserverFactory {
  get(name: string): unknown;
  create(name: string): unknown;
}

export class EventManager implements EventManagerInterface {
  private factory?: ObserverFactory;
  private hookList?: DispatchHookList;

  constructor(readonly config: EventConfig) {}

  /** The object manager is built after the manager it holds: connected once both exist. */
  connect(factory: ObserverFactory): void {
    this.factory = factory;
  }

  async dispatch(eventName: string, data: Record<string, unknown> = {}): Promise<void> {
    const name = eventName.toLowerCase();
    const hooks = this.hooks();
    for (const hook of hooks?.before ?? []) data = (await hook.beforeDispatch!(name, data)) ?? data;
    const observers = this.config.observersOf(name);
    if (observers.length > 0) {
      const observer = new Observer(new Event(name, data));
      for (const declaration of observers) await this.instance(declaration).execute(observer);
    }
    for (const hook of hooks?.after ?? []) await hook.afterDispatch!(name, data);
  }

  /** The modules' dispatch hooks (DispatchHookList.ts), built on the first dispatch. */
  private hooks(): DispatchHookList | undefined {
    if (!this.hookList && this.factory) this.hookList = this.factory.get(DISPATCH_HOOK_LIST) as DispatchHookList;
    return this.hookList;
  }

  private instance(declaration: ObserverDeclaration): ObserverInterface {
    if (!this.factory) throw new Error('EventManager.dispatch() before the object manager was built');
    const name = declaration.instance!;
    return (declaration.shared === false ? this.factory.create(name) : this.factory.get(name)) as ObserverInterface;
  }
}
