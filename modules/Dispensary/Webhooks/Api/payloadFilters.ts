/** Adobe's `rules` and `fields`, shared with event subscriptions (Dispensary_Eventing). */
export { RULE_OPERATORS, rulesHold, selectFields } from '../Model/payload.js';
/** One signed, policy-checked call; served by name as `Dispensary\Webhooks\Model\WebhookTransport`. */
export type { SignedRequest, WebhookTransport } from '../Model/WebhookTransport.js';
export { generateSecret } from '../Model/Signature.js';
