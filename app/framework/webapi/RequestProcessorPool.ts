/**
 * The request processors of `/rest`, asked in order (Magento's
 * `Magento\Webapi\Controller\Rest\RequestProcessorPool`). Modules add theirs through di.xml:
 *
 *   <type name="Framework\Webapi\Rest\RequestProcessorPool"><arguments>
 *     <argument name="requestProcessors" xsi:type="array">
 *       <item name="acme_status" xsi:type="object">Acme\Status\Model\StatusRequestProcessor</item>
 *     </argument></arguments></type>
 *
 * The processors of di.xml are asked first, in the order of the merged item list (modules in load
 * order), then the framework's (`syncSchema`, `asyncSchema`, `async`, `sync`), which the HTTP app
 * adds with `withDefaults`; an item named like one of the framework's replaces it. When no
 * processor takes a request the answer is 400 `Specified request cannot be processed.`, as
 * Magento's.
 */
import type { RequestProcessorInterface, RestRequest } from './RequestProcessorInterface.js';
import { WebapiException } from './WebapiException.js';

export const REQUEST_PROCESSOR_POOL = 'Framework\\Webapi\\Rest\\RequestProcessorPool';
export const CANNOT_PROCESS = 'Specified request cannot be processed.';

export class RequestProcessorPool {
  constructor(readonly requestProcessors: Readonly<Record<string, RequestProcessorInterface>> = {}) {}

  /** This pool's processors, then those of `defaults` it does not name. */
  withDefaults(defaults: Readonly<Record<string, RequestProcessorInterface>>): RequestProcessorPool {
    const merged: Record<string, RequestProcessorInterface> = { ...this.requestProcessors };
    for (const [name, processor] of Object.entries(defaults)) if (!(name in merged)) merged[name] = processor;
    return new RequestProcessorPool(merged);
  }

  /** The first processor that can process the request; 400 when none can. */
  getProcessor(request: RestRequest): RequestProcessorInterface {
    for (const processor of Object.values(this.requestProcessors)) if (processor.canProcess(request)) return processor;
    throw new WebapiException(400, CANNOT_PROCESS);
  }
}
