/**
 * `etc/webhooks.xml` of every enabled module, in Adobe Commerce's schema
 * (urn:magento:module:Magento_AdobeCommerceWebhooks:etc/webhooks.xsd):
 *
 *   <config>
 *     <method name="plugin.dispensary.recommendation.api.recommendation_item_management.add_items" type="before">
 *       <hooks>
 *         <batch name="stock" order="10">
 *           <hook name="check" url="{env:STOCK_URL}/check" priority="100" required="true" timeout="2000"
 *                 softTimeout="500" fallbackErrorMessage="..." ttl="60" method="POST" secret="env:STOCK_SECRET">
 *             <headers><header name="x-api-key">{env:STOCK_KEY}</header></headers>
 *             <fields><field name="items" source="recommendation.items"/></fields>
 *             <rules><rule field="recommendation.items" operator="notEmpty"/></rules>
 *           </hook>
 *         </batch>
 *       </hooks>
 *     </method>
 *   </config>
 *
 * Merged in module load order as Magento merges XML: a later module's hook of the same method, type,
 * batch and name changes the attributes it gives and adds to (or, by name, changes) the fields,
 * rules and headers; `remove="true"` takes the hook (or one field, rule or header) away. A rule may
 * be written with attributes or with `<field>`, `<operator>`, `<value>` elements (xmlFilters.ts).
 * `secret` is this project's addition (every call is signed): `whsec_...`, or `env:NAME` to read
 * it from the environment when the hook is called (unset: the call fails as a hook failure does).
 * Read once, at start-up (ConfigReaderList): any mistake stops start-up naming the file and element.
 */
import {
  ConfigError,
  checkElement,
  parseBooleanAttr,
  readModuleXmlFiles,
  type ModuleDefinition,
  type XmlElement,
} from '#framework';

import { xmlSecretSchema } from '../../OutOfProcessExtensibility/Api/filterSettings.js';
import {
  mergedValues,
  mergeXmlFilters,
  xmlSettingError,
  type Merged,
  type XmlFilters,
  type XmlHeader,
} from '../../OutOfProcessExtensibility/Api/xmlFilters.js';
import { webhookSchema, type WebhookData } from '../Api/WebhookManagementInterface.js';
import { hookKey, type Hook } from './Hook.js';
import { carriesCredentials } from './hookNames.js';
import { hookSettingsProblem } from './hookSettings.js';

/** One hook as the files declared it so far, before it is checked. */
interface Declared extends XmlFilters {
  file: string;
  method: string;
  type: string;
  batch: string;
  batchOrder?: string;
  attrs: Record<string, string>;
  headers: Merged<XmlHeader>;
}

export function readWebhooksXml(modules: readonly ModuleDefinition[]): Hook[] {
  const declared = new Map<string, Declared>();
  for (const { file, root } of readModuleXmlFiles(modules, 'webhooks.xml', { root: 'config' })) {
    checkElement(root, { children: ['method'] }, file, 'config');
    for (const method of root.children) {
      checkElement(method, { required: ['name', 'type'], children: ['hooks'] }, file, 'method');
      if (method.attrs.type !== 'before' && method.attrs.type !== 'after')
        throw new ConfigError(`${file}: <method name="${method.attrs.name}">: type must be before or after`);
      if (method.children.length === 0)
        throw new ConfigError(`${file}: <method name="${method.attrs.name}"> needs a <hooks> element`);
      for (const group of method.children) {
        checkElement(group, { children: ['batch'] }, file, 'hooks');
        for (const batch of group.children) {
          checkElement(batch, { required: ['name'], optional: ['order'], children: ['hook'] }, file, 'batch');
          for (const hook of batch.children) declareHook(declared, hook, method, batch, file);
        }
      }
    }
  }
  return [...declared.values()].map(checkHook);
}

const HOOK_ATTRIBUTES = [
  'url',
  'priority',
  'required',
  'timeout',
  'softTimeout',
  'fallbackErrorMessage',
  'ttl',
  'method',
  'remove',
  'secret',
  'sslVerification',
];

function declareHook(
  declared: Map<string, Declared>,
  hook: XmlElement,
  method: XmlElement,
  batch: XmlElement,
  file: string,
): void {
  const where = `hook "${hook.attrs.name}" of ${method.attrs.name}`;
  checkElement(
    hook,
    {
      required: ['name'],
      optional: HOOK_ATTRIBUTES,
      children: ['headers', 'fields', 'rules', 'developerConsoleOauth'],
    },
    file,
    'hook',
  );
  if (hook.children.some((c) => c.name === 'developerConsoleOauth'))
    throw new ConfigError(`${file}: ${where}: <developerConsoleOauth> is not supported; send a header instead`);
  if (parseBooleanAttr(hook.attrs.sslVerification, file, `${where}: sslVerification`) === false)
    throw new ConfigError(
      `${file}: ${where}: sslVerification="false" is not supported (certificates are always verified)`,
    );
  const key = hookKey({
    webhook_method: method.attrs.name!,
    webhook_type: method.attrs.type as 'before',
    batch_name: batch.attrs.name!,
    hook_name: hook.attrs.name!,
  });
  if (parseBooleanAttr(hook.attrs.remove, file, `${where}: remove`) === true) {
    declared.delete(key);
    return;
  }
  const earlier = declared.get(key);
  const current: Declared = earlier ?? {
    file,
    method: method.attrs.name!,
    type: method.attrs.type!,
    batch: batch.attrs.name!,
    attrs: {},
    fields: new Map(),
    rules: new Map(),
    headers: new Map(),
  };
  current.file = file;
  if (batch.attrs.order !== undefined) current.batchOrder = batch.attrs.order;
  Object.assign(current.attrs, hook.attrs);
  for (const child of hook.children) mergeXmlFilters(child, current, file);
  declared.set(key, current);
}

function checkHook(hook: Declared): Hook {
  const { file, attrs } = hook;
  const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  const where = `${file}: hook "${attrs.name}" of ${hook.method}`;
  if (attrs.url && /\{config:/.test(attrs.url))
    throw new ConfigError(`${where}: {config:...} placeholders are not supported in url; use {env:NAME}`);
  const secret = attrs.secret;
  if (!secret) throw new ConfigError(`${where}: needs a signing secret (secret="env:NAME" or secret="whsec_...")`);
  if (carriesCredentials(hook.method))
    throw new ConfigError(`${where}: this method's arguments or answer are credentials and cannot be hooked`);
  const { value, error } = webhookSchema.keys({ secret: xmlSecretSchema }).validate(
    {
      webhook_method: hook.method,
      webhook_type: hook.type,
      batch_name: hook.batch,
      batch_order: number(hook.batchOrder),
      hook_name: attrs.name,
      url: attrs.url,
      priority: number(attrs.priority),
      required: parseBooleanAttr(attrs.required, file, `hook "${attrs.name}" of ${hook.method}: required`),
      soft_timeout: number(attrs.softTimeout),
      timeout: number(attrs.timeout),
      method: attrs.method,
      fallback_error_message: attrs.fallbackErrorMessage,
      ttl: number(attrs.ttl),
      fields: mergedValues(hook.fields),
      rules: mergedValues(hook.rules),
      headers: mergedValues(hook.headers),
      secret,
    },
    { errors: { wrap: { label: false } } },
  );
  if (error) throw new ConfigError(`${where}: ${error.message}`);
  const { secret: checked, ...definition } = value as WebhookData & { secret: string };
  const problem = hookSettingsProblem(definition);
  if (problem) throw xmlSettingError(where, problem);
  return { ...definition, secret: checked, source: file };
}
