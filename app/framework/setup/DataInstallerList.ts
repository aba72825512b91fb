/**
 * Recurring data installers (Magento's recurring data patches): run after migrations by
 * `setup:upgrade` and `npm start`. Modules add theirs in di.xml:
 *
 *   <type name="Framework\Setup\DataInstallerList"><arguments>
 *     <argument name="installers" xsi:type="array">
 *       <item name="default_store" xsi:type="object">Vendor\Module\Setup\DefaultStore</item>
 *     </argument></arguments></type>
 *
 * Each must be idempotent and safe when several processes run it at once.
 */
export interface DataInstaller {
  install(): Promise<void>;
}

export class DataInstallerList {
  constructor(readonly installers: Record<string, DataInstaller> = {}) {}

  async installAll(): Promise<string[]> {
    for (const installer of Object.values(this.installers)) await installer.install();
    return Object.keys(this.installers);
  }
}
