/**
 * The checks of a hook's or event subscription's settings that its schema cannot make, run when it
 * is subscribed (REST, CLI: a 400 naming the field) and when webhooks.xml/io_events.xml is read at
 * start-up (naming the file and element): a setting that passes cannot make a matching request fail.
 */
import { InputException } from '#framework';
import type { WebhookData } from '../Api/WebhookManagementInterface.js';
import { filterProblem, type SettingProblem } from './payload.js';

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

/** Magento's invalid-field message, with the reason: `Invalid value of "%value" provided for the %fieldName field: %reason`. */
export function settingException(prefix: string, problem: SettingProblem): InputException {
  return new InputException([
    {
      phrase: 'Invalid value of "%value" provided for the %fieldName field: %reason',
      parameters: {
        fieldName: `${prefix}.${problem.field}`,
        value: typeof problem.value === 'string' ? problem.value : String(problem.value),
        reason: problem.reason,
      },
    },
  ]);
}

/** How a webhooks.xml/io_events.xml element is named in a start-up error: `<rule> 2 (field "...")`. */
export function xmlElementOf(problem: SettingProblem): string {
  const match = /^(fields|rules|headers)\[(\d+)\]\.(\w+)$/.exec(problem.field);
  if (!match) return problem.field;
  const element = { fields: 'field', rules: 'rule', headers: 'header' }[match[1] as 'fields' | 'rules' | 'headers'];
  const attribute = match[1] === 'headers' && match[3] === 'value' ? 'text' : `${match[3]}`;
  return `<${element}> ${Number(match[2]) + 1} (${attribute} "${String(problem.value)}")`;
}
