/**
 * `etc/webhooks.xml` of every enabled module, in Adobe Commerce's schema
 * (urn:magento:module:Magento_AdobeCommerceWebhooks:etc/webhooks.xsd):
 *
 *   <config>
 *     <method name="plugin.dispensary.recommendation.api.recommendation_item_management.add_items" type="before">
 *       <hooks>
 *         <batch name="stock" order="10">
 *           <hook name="check" url="https://..." priority="100" required="true" timeout="2000"
 *                 softTimeout="500" fallbackErrorMessage="..." ttl="60" method="POST" secret="env:STOCK_SECRET">
 *             <headers><header name="x-api-key">...</header></headers>
 *             <fields><field name="items" source="recommendation.items"/></fields>
 *             <rules><rule field="recommendation.items" operator="notEmpty"/></rules>
 *           </hook>
 *         </batch>
 *       </hooks>
 *     </method>
 *   </config>
 *
 * Merged in module load order: a later module's hook of the same method, type, batch and name
 * changes it, and `remove="true"` takes it away (Adobe's way to switch off another module's hook).
 * `secret` is this project's addition (every call is signed): `whsec_...`, or `env:NAME` to read
 * it from the environment when the hook is called (unset: the call fails as a hook failure does).
 */
import {
  ConfigError,
  checkElement,
  Joi,
  parseBooleanAttr,
  readModuleXmlFiles,
  type ModuleDefinition,
  type XmlElement,
} from '#framework';

import { webhookSchema, type WebhookData } from '../Api/WebhookManagementInterface.js';
import { hookKey, type Hook } from './Hook.js';
import { carriesCredentials } from './hookNames.js';

export function readWebhooksXml(modules: readonly ModuleDefinition[]): Hook[] {
  const hooks = new Map<string, Hook>();
  for (const { file, root } of readModuleXmlFiles(modules, 'webhooks.xml', { root: 'config' })) {
    checkElement(root, { children: ['method'] }, file, 'config');
    for (const method of root.children) {
      checkElement(method, { required: ['name', 'type'], children: ['hooks'] }, file, 'method');
      for (const group of method.children) {
        checkElement(group, { children: ['batch'] }, file, 'hooks');
        for (const batch of group.children) {
          checkElement(batch, { required: ['name'], optional: ['order'], children: ['hook'] }, file, 'batch');
          for (const hook of batch.children) {
            const parsed = readHook(hook, method, batch, file);
            if (parsed === 'removed') hooks.delete(hookKey(removedKey(hook, method, batch)));
            else hooks.set(hookKey(parsed), parsed);
          }
        }
      }
    }
  }
  return [...hooks.values()];
}

function removedKey(hook: XmlElement, method: XmlElement, batch: XmlElement) {
  return {
    webhook_method: method.attrs.name!,
    webhook_type: method.attrs.type as 'before',
    batch_name: batch.attrs.name!,
    hook_name: hook.attrs.name!,
  };
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
];

function readHook(hook: XmlElement, method: XmlElement, batch: XmlElement, file: string): Hook | 'removed' {
  checkElement(
    hook,
    { required: ['name'], optional: HOOK_ATTRIBUTES, children: ['headers', 'fields', 'rules'] },
    file,
    'hook',
  );
  if (parseBooleanAttr(hook.attrs.remove, file, 'remove') === true) return 'removed';
  const child = (name: string) => hook.children.find((c) => c.name === name)?.children ?? [];
  const headers = child('headers').map((h) => {
    checkElement(h, { required: ['name'], text: true }, file, 'header');
    return { name: h.attrs.name!, value: h.text };
  });
  const fields = child('fields').map((f) => {
    checkElement(f, { required: ['name'], optional: ['source'] }, file, 'field');
    return f.attrs.source ? { name: f.attrs.name!, source: f.attrs.source } : { name: f.attrs.name! };
  });
  const rules = child('rules').map((r) => {
    checkElement(r, { required: ['field', 'operator'], optional: ['value'] }, file, 'rule');
    return r.attrs.value === undefined
      ? { field: r.attrs.field!, operator: r.attrs.operator! }
      : { field: r.attrs.field!, operator: r.attrs.operator!, value: r.attrs.value };
  });
  const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  const where = `${file}: hook "${hook.attrs.name}" of ${method.attrs.name}`;
  const secret = hook.attrs.secret;
  if (!secret) throw new ConfigError(`${where}: needs a signing secret (secret="env:NAME" or secret="whsec_...")`);
  if (carriesCredentials(method.attrs.name!))
    throw new ConfigError(`${where}: this method's arguments or answer are credentials and cannot be hooked`);
  const { value, error } = webhookSchema
    .keys({
      secret: Joi.string()
        .pattern(/^(env:[A-Za-z_][A-Za-z0-9_]*|whsec_.+)$/)
        .required(),
    })
    .validate(
      {
        webhook_method: method.attrs.name,
        webhook_type: method.attrs.type,
        batch_name: batch.attrs.name,
        batch_order: number(batch.attrs.order),
        hook_name: hook.attrs.name,
        url: hook.attrs.url,
        priority: number(hook.attrs.priority),
        required: parseBooleanAttr(hook.attrs.required, file, 'required'),
        soft_timeout: number(hook.attrs.softTimeout),
        timeout: number(hook.attrs.timeout),
        method: hook.attrs.method,
        fallback_error_message: hook.attrs.fallbackErrorMessage,
        ttl: number(hook.attrs.ttl),
        fields,
        rules,
        headers,
        secret,
      },
      { errors: { wrap: { label: false } } },
    );
  if (error) throw new ConfigError(`${where}: ${error.message}`);
  const { secret: checked, ...definition } = value as WebhookData & { secret: string };
  return { ...definition, secret: checked, source: file };
}
