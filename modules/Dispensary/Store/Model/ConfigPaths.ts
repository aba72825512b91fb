/**
 * The store configuration paths `storeConfigs` answers, by Magento's own paths (core_config_data),
 * with their built-in defaults and what a value must look like. A value may use
 * `{{unsecure_base_url}}` and `{{secure_base_url}}` as Magento's base URLs do.
 */
import type { StoreConfigInterface } from '../Api/Data/StoreConfigInterface.js';

type Field = Exclude<keyof StoreConfigInterface, 'id' | 'code' | 'websiteId'>;

export interface ConfigPath {
  readonly field: Field;
  readonly defaultValue: string;
  /** Null when the value is fine, else why not. */
  readonly check: (value: string) => string | null;
}

const pattern = (regex: RegExp, expected: string) => (value: string) =>
  regex.test(value) ? null : `expected ${expected}`;

function timezone(value: string): string | null {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(value) ? null : 'expected an IANA time zone such as Europe/Berlin';
  } catch {
    return 'expected an IANA time zone such as Europe/Berlin';
  }
}

/** An absolute http(s) URL ending in `/`, or one built on a base URL placeholder. */
function baseUrl(value: string): string | null {
  const resolved = value.replace(/\{\{(?:unsecure|secure)_base_url\}\}/g, 'http://placeholder.invalid/');
  try {
    const url = new URL(resolved);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && resolved.endsWith('/') && !url.search && !url.hash)
      return null;
  } catch {
    // falls through
  }
  return 'expected an absolute http(s) URL ending in /';
}

export const CONFIG_PATHS: ReadonlyMap<string, ConfigPath> = new Map<string, ConfigPath>([
  [
    'general/locale/code',
    {
      field: 'locale',
      defaultValue: 'en_US',
      check: pattern(/^[a-z]{2,3}(_[A-Z][a-z]{3})?_[A-Z]{2}$/, 'a locale such as en_US'),
    },
  ],
  [
    'currency/options/base',
    { field: 'baseCurrencyCode', defaultValue: 'USD', check: pattern(/^[A-Z]{3}$/, 'an ISO 4217 code such as USD') },
  ],
  [
    'currency/options/default',
    {
      field: 'defaultDisplayCurrencyCode',
      defaultValue: 'USD',
      check: pattern(/^[A-Z]{3}$/, 'an ISO 4217 code such as USD'),
    },
  ],
  ['general/locale/timezone', { field: 'timezone', defaultValue: 'UTC', check: timezone }],
  [
    'general/locale/weight_unit',
    { field: 'weightUnit', defaultValue: 'lbs', check: pattern(/^(lbs|kgs)$/, 'lbs or kgs') },
  ],
  [
    'web/unsecure/base_url',
    {
      field: 'baseUrl',
      defaultValue: 'http://localhost:3000/',
      check: (v) => (v.includes('{{') ? 'expected a URL without placeholders' : baseUrl(v)),
    },
  ],
  ['web/unsecure/base_link_url', { field: 'baseLinkUrl', defaultValue: '{{unsecure_base_url}}', check: baseUrl }],
  [
    'web/unsecure/base_static_url',
    { field: 'baseStaticUrl', defaultValue: '{{unsecure_base_url}}static/', check: baseUrl },
  ],
  [
    'web/unsecure/base_media_url',
    { field: 'baseMediaUrl', defaultValue: '{{unsecure_base_url}}media/', check: baseUrl },
  ],
  [
    'web/secure/base_url',
    {
      field: 'secureBaseUrl',
      defaultValue: '{{unsecure_base_url}}',
      check: (v) => (v.includes('{{secure_base_url}}') ? 'the secure base URL cannot refer to itself' : baseUrl(v)),
    },
  ],
  ['web/secure/base_link_url', { field: 'secureBaseLinkUrl', defaultValue: '{{secure_base_url}}', check: baseUrl }],
  [
    'web/secure/base_static_url',
    { field: 'secureBaseStaticUrl', defaultValue: '{{secure_base_url}}static/', check: baseUrl },
  ],
  [
    'web/secure/base_media_url',
    { field: 'secureBaseMediaUrl', defaultValue: '{{secure_base_url}}media/', check: baseUrl },
  ],
]);
