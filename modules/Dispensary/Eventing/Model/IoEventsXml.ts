/**
 * `etc/io_events.xml` of every enabled module, in Adobe's schema
 * (urn:magento:module:Magento_AdobeCommerceEventsClient:etc/io_events.xsd) plus what delivering
 * to the integrator's own endpoint needs: `destination` and `secret` (`env:NAME` or `whsec_...`).
 *
 *   <config>
 *     <event name="observer.dispensary_recommendation_items_add_after" destination="https://..." secret="env:ERP_EVENTS_SECRET">
 *       <fields><field name="recommendation.recommendation_id"/><field name="added"/></fields>
 *       <rules><rule field="recommendation.store_id" operator="equal" value="1"/></rules>
 *     </event>
 *   </config>
 *
 * A later module's event of the same name replaces it; a run-time subscription of that name too.
 */
import {
  ConfigError,
  checkElement,
  Joi,
  parseBooleanAttr,
  readModuleXmlFiles,
  type ModuleDefinition,
} from '#framework';
import { eventSubscriptionSchema, type EventSubscriptionData } from '../Api/EventSubscriptionManagementInterface.js';
import type { Subscription } from './Subscription.js';

export function readIoEventsXml(modules: readonly ModuleDefinition[]): Subscription[] {
  const found = new Map<string, Subscription>();
  for (const { file, root } of readModuleXmlFiles(modules, 'io_events.xml', { root: 'config' })) {
    checkElement(root, { children: ['event'] }, file, 'config');
    for (const event of root.children) {
      checkElement(
        event,
        {
          required: ['name', 'destination', 'secret'],
          optional: ['parent', 'priority', 'format'],
          children: ['fields', 'rules'],
        },
        file,
        'event',
      );
      const child = (name: string) => event.children.find((c) => c.name === name)?.children ?? [];
      const fields = child('fields').map((f) => {
        checkElement(f, { required: ['name'] }, file, 'field');
        return { name: f.attrs.name! };
      });
      const rules = child('rules').map((r) => {
        checkElement(r, { required: ['field', 'operator'], optional: ['value'] }, file, 'rule');
        return {
          field: r.attrs.field!,
          operator: r.attrs.operator!,
          ...(r.attrs.value !== undefined ? { value: r.attrs.value } : {}),
        };
      });
      const { value, error } = eventSubscriptionSchema
        .keys({
          secret: Joi.string()
            .pattern(/^(env:[A-Za-z_][A-Za-z0-9_]*|whsec_.+)$/)
            .required(),
        })
        .validate(
          {
            name: event.attrs.name,
            parent: event.attrs.parent,
            fields,
            rules,
            destination: event.attrs.destination,
            priority: parseBooleanAttr(event.attrs.priority, file, 'priority'),
            format: event.attrs.format,
            secret: event.attrs.secret,
          },
          { errors: { wrap: { label: false } } },
        );
      if (error) throw new ConfigError(`${file}: event "${event.attrs.name}": ${error.message}`);
      const { secret, ...definition } = value as EventSubscriptionData & { secret: string };
      found.set(definition.name, { ...definition, secret, source: file });
    }
  }
  return [...found.values()];
}
