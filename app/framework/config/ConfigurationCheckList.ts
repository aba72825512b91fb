/**
 * Checks of a module's own configuration files (an etc/*.xml the runtime does not read itself,
 * such as webhooks.xml), run at start-up after the routes are checked (phase 4): a mistake stops
 * start-up with a ConfigError naming the file and element, not the first request that needs it.
 * Modules add theirs in di.xml:
 *
 *   <type name="Framework\Config\ConfigurationCheckList"><arguments>
 *     <argument name="checks" xsi:type="array">
 *       <item name="webhooks_xml" xsi:type="object">Vendor\Module\Model\MyXmlReader</item>
 *     </argument></arguments></type>
 */
export interface ConfigurationCheck {
  /** Reads and checks the configuration; throws a ConfigError naming the file and element. */
  checkConfiguration(): void;
}

export const CONFIGURATION_CHECK_LIST = 'Framework\\Config\\ConfigurationCheckList';

export class ConfigurationCheckList {
  constructor(readonly checks: Record<string, ConfigurationCheck> = {}) {}

  run(): void {
    for (const check of Object.values(this.checks)) check.checkConfiguration();
  }
}
