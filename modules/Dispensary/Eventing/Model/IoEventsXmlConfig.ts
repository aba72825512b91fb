import { FrameworkServices, inject, injectable, type ConfigReader, type ModuleDefinition } from '#framework';
import type { Subscription } from './Subscription.js';
import { readIoEventsXml } from './IoEventsXml.js';

/** The subscriptions of every io_events.xml, read once (at start-up: ConfigReaderList). */
@injectable()
export class IoEventsXmlConfig implements ConfigReader {
  private subscriptions?: Subscription[];

  constructor(@inject(FrameworkServices.ModuleList) private readonly modules: readonly ModuleDefinition[]) {}

  read(): Subscription[] {
    return (this.subscriptions ??= readIoEventsXml(this.modules));
  }
}
