import { isUniqueViolation } from '../db/driverErrors.js';

/**
 * Recurring data installers (Magento's recurring data patches): run after migrations by
 * `setup:upgrade` and `npm start`. Modules add theirs in di.xml:
 *
 *   <type name="Framework\Setup\DataInstallerList"><arguments>
 *     <argument name="installers" xsi:type="array">
 *       <item name="default_store" xsi:type="object">Vendor\Module\Setup\DefaultStore</item>
 *     </argument></arguments></type>
 *
 * Each must be idempotent and safe when several processes run it at once. One help the list gives:
 * an upsert keyed on one column can still fail when a concurrent insert of the same row hits
 * another unique index first (PostgreSQL's `on conflict (key)` absorbs only its own key), so an
 * installer that meets a unique violation runs again, up to five times, and then finds the other
 * process's committed rows.
 */

export interface DataInstaller {
  install(): Promise<void>;
}

const ATTEMPTS = 5;

export class DataInstallerList {
  constructor(
    readonly installers: Record<string, DataInstaller> = {},
    private readonly options: { retryDelayMs?: number } = {},
  ) {}

  async installAll(): Promise<string[]> {
    for (const installer of Object.values(this.installers)) await this.install(installer);
    return Object.keys(this.installers);
  }

  private async install(installer: DataInstaller): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await installer.install();
      } catch (error) {
        if (!isUniqueViolation(error) || attempt === ATTEMPTS) throw error;
        const delay = (this.options.retryDelayMs ?? 50) * attempt * (0.5 + Math.random());
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
