/**
 * The checks of a hook's settings that its schema cannot make, run when it is subscribed (REST,
 * CLI: a 400 naming the field) and when webhooks.xml is read at start-up (naming the file and
 * element): its `fields` and `rules` as an event subscription's (filterProblem), and its
 * `headers`. A setting that passes cannot make a matching request fail.
 */
import { filterProblem, type SettingProblem } from '../../OutOfProcessExtensibility/Api/filterSettings.js';
import type { WebhookData } from '../Api/WebhookManagementInterface.js';

/** Headers the service sets itself, or that frame the request: a hook cannot give them. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'content-type',
  'expect',
  'host',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
  'webhook-id',
  'webhook-signature',
  'webhook-timestamp',
  'x-adobe-commerce-request-id',
]);

/** RFC 9110's token (node's http refuses any other header name). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What node's http sends in a header value: tab, visible ASCII, space, Latin-1 (never CR, LF or NUL). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** What is wrong with a hook's `fields`, `rules` and `headers`; null: nothing. */
export function hookSettingsProblem(
  settings: Pick<WebhookData, 'fields' | 'rules'> & { headers?: WebhookData['headers'] },
): SettingProblem | null {
  const filters = filterProblem(settings);
  if (filters) return filters;
  for (const [i, header] of (settings.headers ?? []).entries()) {
    if (!HEADER_NAME.test(header.name))
      return { field: `headers[${i}].name`, value: header.name, reason: 'not an HTTP header name' };
    if (RESERVED_HEADERS.has(header.name.toLowerCase()))
      return { field: `headers[${i}].name`, value: header.name, reason: 'the service sets this header itself' };
    if (!HEADER_VALUE.test(header.value))
      return {
        field: `headers[${i}].value`,
        value: header.value,
        reason: 'a header value may not hold CR, LF, other control characters or characters beyond Latin-1',
      };
  }
  return null;
}
