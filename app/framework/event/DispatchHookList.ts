/**
 * Hooks on every event dispatch, whatever the event (observers in events.xml name one event
 * each): for code that decides at run time which events it wants, such as out-of-process
 * observers or an outbox. Modules add theirs in di.xml:
 *
 *   <type name="Framework\Event\DispatchHookList"><arguments>
 *     <argument name="hooks" xsi:type="array">
 *       <item name="webhooks" xsi:type="object">Vendor\Module\Model\MyDispatchHook</item>
 *     </argument></arguments></type>
 *
 * They run where the dispatch runs: inside a request, inside its unit of work (a throw rolls the
 * request back; a write joins its transaction).
 */
export interface DispatchHook {
  /** Before the observers; answers the data they receive (undefined: unchanged). */
  beforeDispatch?(eventName: string, data: Record<string, unknown>): Promise<Record<string, unknown> | void>;
  /** After the observers. */
  afterDispatch?(eventName: string, data: Record<string, unknown>): Promise<void>;
}

export class DispatchHookList {
  readonly before: DispatchHook[];
  readonly after: DispatchHook[];

  constructor(readonly hooks: Record<string, DispatchHook> = {}) {
    this.before = Object.values(hooks).filter((hook) => typeof hook.beforeDispatch === 'function');
    this.after = Object.values(hooks).filter((hook) => typeof hook.afterDispatch === 'function');
  }
}
