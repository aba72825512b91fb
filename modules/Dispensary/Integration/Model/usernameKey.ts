/**
 * Admin user names match case-insensitively on every database (Magento's default, as
 * `admin/security/use_case_sensitive_login` is off): trimmed, Unicode NFC, then lower-cased
 * without locale. `admin_user.username_key` holds this key under a unique index, and the login's
 * failure counter is kept per key, so `Admin` and `admin` are one account and one lock.
 */
export function usernameKey(username: string): string {
  return username.trim().normalize('NFC').toLowerCase();
}

/** Longest key a stored user name can have (64 characters, which lower-casing can lengthen). */
export const MAX_USERNAME_KEY_LENGTH = 128;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a key can belong to a stored user: short enough, no control characters, well-formed UTF-16. */
export function isStorableKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_USERNAME_KEY_LENGTH && !/\p{Cc}/u.test(key) && !LONE_SURROGATE.test(key);
}
