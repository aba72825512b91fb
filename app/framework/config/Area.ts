/**
 * Magento's areas (`Magento\Framework\App\Area`): a module's configuration for one lives in
 * `etc/<area>/` and is merged over its global `etc/` files (moduleXmlFiles.ts), so one process
 * can serve the REST area with plugins the crontab area does without.
 */
export const DI_AREAS = ['webapi_rest', 'crontab', 'adminhtml', 'frontend', 'graphql'] as const;
export type Area = 'global' | (typeof DI_AREAS)[number];
