import { FrameworkServices, inject, injectable, type ConfigReader, type ModuleDefinition } from '#framework';
import type { Hook } from './Hook.js';
import { readWebhooksXml } from './WebhooksXml.js';

/** The hooks of every webhooks.xml, read once (at start-up: ConfigReaderList). */
@injectable()
export class WebhooksXmlConfig implements ConfigReader {
  private hooks?: Hook[];

  constructor(@inject(FrameworkServices.ModuleList) private readonly modules: readonly ModuleDefinition[]) {}

  read(): Hook[] {
    return (this.hooks ??= readWebhooksXml(this.modules));
  }
}
