/** Adobe's `rules` and `fields`, shared with event subscriptions (Dispensary_Eventing). */
export { RULE_OPERATORS, rulesHold, selectFields } from '../Model/payload.js';
/** One signed, policy-checked call; served by name as `Dispensary\Webhooks\Model\WebhookTransport`. */
export type { SignedRequest, WebhookTransport } from '../Model/WebhookTransport.js';
export { generateSecret } from '../Model/Signature.js';
/** Adobe's `<fields>`, `<rules>` (both forms) and `<headers>` of webhooks.xml and io_events.xml, merged as Magento merges XML. */
export {
  isContextPath,
  mergedValues,
  mergeXmlFields,
  mergeXmlRules,
  type Merged,
  type XmlField,
  type XmlRule,
} from '../Model/xmlFilters.js';
