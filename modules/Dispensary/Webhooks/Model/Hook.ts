import type { WebhookData } from '../Api/WebhookManagementInterface.js';

/** A hook ready to call: its definition and the signing secret in clear (kept in memory only). */
export interface Hook extends WebhookData {
  /** `whsec_...`, or (webhooks.xml) `env:NAME`: read when the hook is called. */
  readonly secret: string;
  /** `api`, or the webhooks.xml file that declares it. */
  readonly source: string;
}

/** The hook's identity: unique across the system. */
export function hookKey(
  hook: Pick<WebhookData, 'webhook_method' | 'webhook_type' | 'batch_name' | 'hook_name'>,
): string {
  return `${hook.webhook_method} ${hook.webhook_type} ${hook.batch_name} ${hook.hook_name}`;
}

/** What logs and metrics call it (never its URL's query or its headers: they may carry credentials). */
export function hookLabel(
  hook: Pick<WebhookData, 'webhook_method' | 'webhook_type' | 'batch_name' | 'hook_name'>,
): string {
  return `${hook.webhook_method}:${hook.webhook_type}:${hook.batch_name}:${hook.hook_name}`;
}

/** The secret in clear, or null when an `env:` secret is not set. */
export function secretOf(hook: Hook, env: NodeJS.ProcessEnv = process.env): string | null {
  if (!hook.secret.startsWith('env:')) return hook.secret;
  return env[hook.secret.slice(4)] || null;
}

/**
 * Adobe's `{env:NAME}` placeholders of a hook URL or header value, replaced by the variable's value
 * when the hook is called; null when one is unset or empty (the call fails as a hook failure does).
 */
export function resolveEnvPlaceholders(text: string, env: NodeJS.ProcessEnv = process.env): string | null {
  let missing = false;
  const resolved = text.replace(/\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, name: string) => {
    const value = env[name];
    if (!value) missing = true;
    return value ?? '';
  });
  return missing ? null : resolved;
}

/** Whether a URL or header value carries an `{env:NAME}` placeholder. */
export const hasEnvPlaceholder = (text: string): boolean => /\{env:[A-Za-z_][A-Za-z0-9_]*\}/.test(text);

/** What a listed header value reads: the docs tell integrators to put credentials in `headers`. */
export const MASKED_HEADER_VALUE = '******';

/** The hook as anyone may list it: no secret, header names kept and their values masked. */
export function listedHook(hook: Hook): WebhookData & { source: string } {
  const { secret: _secret, ...listed } = hook;
  return { ...listed, headers: hook.headers.map(({ name }) => ({ name, value: MASKED_HEADER_VALUE })) };
}
