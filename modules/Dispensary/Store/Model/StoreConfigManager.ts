import { ADMIN_STORE, ConnectionProvider, FrameworkServices, InputException, inject, injectable } from '#framework';
import type { StoreConfigInterface } from '../Api/Data/StoreConfigInterface.js';
import type { StoreConfigManagerInterface } from '../Api/StoreConfigManagerInterface.js';
import { StoreRepositoryInterface } from '../Api/StoreRepositoryInterface.js';
import { CONFIG_PATHS } from './ConfigPaths.js';

interface ConfigRow {
  scope: 'default' | 'stores';
  scope_id: number;
  path: string;
  value: string;
}

/**
 * Store configuration as Magento's core_config_data keeps it: a value for one store
 * (`stores`, store id) wins over the `default` scope, which wins over the built-in default.
 * Read on every call, so `store:config:set` shows at once in every server process.
 */
@injectable()
export class StoreConfigManager implements StoreConfigManagerInterface {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject(StoreRepositoryInterface) private readonly stores: StoreRepositoryInterface,
  ) {}

  async getStoreConfigs(storeCodes?: string[]): Promise<StoreConfigInterface[]> {
    // Magento's store collection leaves the admin store out (load_default off).
    let visible = (await this.stores.getList()).filter((store) => store.id !== ADMIN_STORE.id);
    if (storeCodes?.length) visible = visible.filter((store) => storeCodes.includes(store.code));
    if (visible.length === 0) return [];
    const rows = (await this.connection
      .get()('store_config_data')
      .where('scope', 'default')
      .orWhere((q) =>
        q.where('scope', 'stores').whereIn(
          'scope_id',
          visible.map((s) => s.id),
        ),
      )
      .select('scope', 'scope_id', 'path', 'value')) as ConfigRow[];
    return visible.map((store) => {
      const value = (path: string): string => {
        const own = rows.find((r) => r.scope === 'stores' && Number(r.scope_id) === store.id && r.path === path);
        const global = rows.find((r) => r.scope === 'default' && r.path === path);
        return own?.value ?? global?.value ?? CONFIG_PATHS.get(path)!.defaultValue;
      };
      const unsecure = value('web/unsecure/base_url');
      const secure = value('web/secure/base_url').replaceAll('{{unsecure_base_url}}', unsecure);
      const url = (path: string) =>
        value(path).replaceAll('{{unsecure_base_url}}', unsecure).replaceAll('{{secure_base_url}}', secure);
      return {
        id: store.id,
        code: store.code,
        websiteId: store.websiteId,
        locale: value('general/locale/code'),
        baseCurrencyCode: value('currency/options/base'),
        defaultDisplayCurrencyCode: value('currency/options/default'),
        timezone: value('general/locale/timezone'),
        weightUnit: value('general/locale/weight_unit'),
        baseUrl: unsecure,
        baseLinkUrl: url('web/unsecure/base_link_url'),
        baseStaticUrl: url('web/unsecure/base_static_url'),
        baseMediaUrl: url('web/unsecure/base_media_url'),
        secureBaseUrl: secure,
        secureBaseLinkUrl: url('web/secure/base_link_url'),
        secureBaseStaticUrl: url('web/secure/base_static_url'),
        secureBaseMediaUrl: url('web/secure/base_media_url'),
      };
    });
  }

  async saveValue(path: string, value: string, storeCode: string | null): Promise<void> {
    const definition = CONFIG_PATHS.get(path);
    if (!definition) {
      throw new InputException([
        {
          phrase: 'The configuration path "%path" is not supported; supported: %paths.',
          parameters: { path, paths: [...CONFIG_PATHS.keys()].join(', ') },
        },
      ]);
    }
    const problem = definition.check(value);
    if (problem)
      throw new InputException([
        {
          phrase: 'Invalid value of "%value" provided for the %fieldName field: %reason.',
          parameters: { value, fieldName: path, reason: problem },
        },
      ]);
    let scopeId = 0;
    if (storeCode !== null) {
      const store = await this.stores.getStoreByCode(storeCode);
      if (!store)
        throw new InputException([{ phrase: 'The store code "%storeCode" is unknown.', parameters: { storeCode } }]);
      scopeId = store.id;
    }
    await this.connection
      .get()('store_config_data')
      .insert({ scope: storeCode === null ? 'default' : 'stores', scope_id: scopeId, path, value })
      .onConflict(['scope', 'scope_id', 'path'])
      .merge(['value']);
  }
}
