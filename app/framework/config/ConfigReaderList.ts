/**
 * Module configuration files a module reads itself (Adobe's etc/webhooks.xml, etc/io_events.xml):
 * each reader is asked to read at start-up (phase 3, after the container is built), so a mistake in
 * such a file stops start-up naming the file and element, as one in di.xml does, instead of failing
 * the first request that needs it. Modules add theirs in di.xml:
 *
 *   <type name="Framework\Config\ConfigReaderList"><arguments>
 *     <argument name="readers" xsi:type="array">
 *       <item name="webhooks_xml" xsi:type="object">Vendor\Module\Model\WebhooksXmlConfig</item>
 *     </argument></arguments></type>
 */

export interface ConfigReader {
  /** Reads and checks the files (once; later calls answer what was read); throws ConfigError on a mistake. */
  read(): unknown;
}

export class ConfigReaderList {
  constructor(readonly readers: Record<string, ConfigReader> = {}) {}

  readAll(): void {
    for (const reader of Object.values(this.readers)) reader.read();
  }
}
