/**
 * `etc/io_events.xml` of every enabled module, in Adobe's schema
 * (urn:magento:module:Magento_AdobeCommerceEventsClient:etc/io_events.xsd) plus what delivering
 * to the integrator's own endpoint needs: `destination` and `secret` (`env:NAME` or `whsec_...`).
 *
 *   <config>
 *     <event name="observer.dispensary_recommendation_items_add_after" destination="https://..." secret="env:ERP_EVENTS_SECRET">
 *       <fields><field name="recommendation.recommendation_id"/><field name="added"/></fields>
 *       <rules>
 *         <rule><field>recommendation.store_id</field><operator>equal</operator><value>2</value></rule>
 *       </rules>
 *     </event>
 *   </config>
 *
 * A rule may be written with attributes too (`<rule field=".." operator=".." value=".."/>`). When
 * several modules declare one event, Adobe's merge applies: the fields and rules of all of them are
 * sent and checked, and a later module's attributes (destination, secret, parent, priority) win. A
 * run-time subscription of that name replaces it. Read once, at start-up (ConfigReaderList): any
 * mistake stops start-up naming the file and element.
 */
import { ConfigError, checkElement, parseBooleanAttr, readModuleXmlFiles, type ModuleDefinition } from '#framework';
import { filterProblem, xmlSecretSchema } from '../../OutOfProcessExtensibility/Api/filterSettings.js';
import {
  mergedValues,
  mergeXmlFilters,
  xmlSettingError,
  type XmlFilters,
} from '../../OutOfProcessExtensibility/Api/xmlFilters.js';
import { eventSubscriptionSchema, type EventSubscriptionData } from '../Api/EventSubscriptionManagementInterface.js';
import type { Subscription } from './Subscription.js';

/** One event as the files declared it so far, before it is checked. */
interface Declared extends XmlFilters {
  file: string;
  attrs: Record<string, string>;
}

export function readIoEventsXml(modules: readonly ModuleDefinition[]): Subscription[] {
  const declared = new Map<string, Declared>();
  for (const { file, root } of readModuleXmlFiles(modules, 'io_events.xml', { root: 'config' })) {
    checkElement(root, { children: ['event'] }, file, 'config');
    for (const event of root.children) {
      checkElement(
        event,
        {
          required: ['name'],
          optional: ['destination', 'secret', 'parent', 'priority', 'format'],
          children: ['fields', 'rules'],
        },
        file,
        'event',
      );
      const name = event.attrs.name!;
      const current = declared.get(name) ?? { file, attrs: {}, fields: new Map(), rules: new Map() };
      current.file = file;
      Object.assign(current.attrs, event.attrs);
      for (const child of event.children) mergeXmlFilters(child, current, file);
      declared.set(name, current);
    }
  }
  return [...declared.values()].map(checkEvent);
}

function checkEvent({ file, attrs, fields, rules }: Declared): Subscription {
  const where = `${file}: event "${attrs.name}"`;
  const listened = attrs.parent ?? attrs.name!;
  if (!listened.startsWith('observer.'))
    throw new ConfigError(
      `${where}: listens to "${listened}": only observer.<event> events are dispatched here (plugin.* are Adobe's generated plugins)`,
    );
  if (!attrs.destination)
    throw new ConfigError(`${where}: needs a destination (the http(s) URL the events are POSTed to)`);
  if (!attrs.secret)
    throw new ConfigError(`${where}: needs a signing secret (secret="env:NAME" or secret="whsec_...")`);
  const { value, error } = eventSubscriptionSchema.keys({ secret: xmlSecretSchema }).validate(
    {
      name: attrs.name,
      parent: attrs.parent,
      fields: mergedValues(fields),
      rules: mergedValues(rules),
      destination: attrs.destination,
      priority: parseBooleanAttr(attrs.priority, file, `event "${attrs.name}": priority`),
      format: attrs.format,
      secret: attrs.secret,
    },
    { errors: { wrap: { label: false } } },
  );
  if (error) throw new ConfigError(`${where}: ${error.message}`);
  const { secret, ...definition } = value as EventSubscriptionData & { secret: string };
  const problem = filterProblem(definition);
  if (problem) throw xmlSettingError(where, problem);
  return { ...definition, secret, source: file };
}
