/**
 * What Magento's WebapiAsync api-functional tests share: the app on a queue mode, an admin token
 * (the caller of Magento's harness), Magento's product body (getSimpleProductData), running the
 * `async.operations.all` consumer (PublisherConsumerController) and looking products up.
 */
import { expect } from 'chai';
import { Dispensary } from '../../modules/Recommendation/support.js';
import { deleteTopology, type QueueMode } from '../../modules/AsynchronousOperations/support.js';

export interface MagentoAsync {
  readonly d: Dispensary;
  readonly admin: string;
  stop(): Promise<void>;
}

export async function startMagentoAsync(mode: QueueMode): Promise<MagentoAsync> {
  const options = mode.options();
  const d = await Dispensary.start(options);
  const created = await d.t.cli('admin:user:create', '--username', 'apitest', '--password', 'apitest123');
  expect(created.code, created.err.join('\n')).to.equal(0);
  const token = await d
    .request()
    .post('/rest/V1/integration/admin/token')
    .send({ username: 'apitest', password: 'apitest123' });
  expect(token.status).to.equal(200);
  return {
    d,
    admin: token.body as string,
    async stop() {
      await d.stop();
      if (mode.name === 'amqp') await deleteTopology(options.amqpUrl!, options.queuePrefix);
    },
  };
}

/**
 * The set-up of every WebapiAsync file, in the calling `describe`: the app on the queue mode (the
 * suite is skipped when the mode is unavailable), then `setUp`, and its stop after. The object
 * answered is filled in by the `before` hook.
 */
export function magentoAsync(mode: QueueMode, setUp?: (m: MagentoAsync) => Promise<unknown>): MagentoAsync {
  const m: Partial<MagentoAsync> = {};
  before(async function () {
    if (mode.unavailable) return this.skip();
    Object.assign(m, await startMagentoAsync(mode));
    await setUp?.(m as MagentoAsync);
  });
  after(() => m.stop?.());
  return m as MagentoAsync;
}

/** Magento's getSimpleProductData(), with the given fields over it (array_replace_recursive). */
export function simpleProductData(data: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sku: `sku-${Math.random().toString(36).slice(2)}`,
    name: `sku-${Math.random().toString(36).slice(2)}`,
    visibility: 4,
    type_id: 'simple',
    price: 3.62,
    status: 1,
    attribute_set_id: 4,
    custom_attributes: [
      { attribute_code: 'cost', value: '' },
      { attribute_code: 'description', value: 'Description' },
    ],
    ...data,
  };
}

/** PublisherConsumerController::waitForAsynchronousResult: the consumer runs the queued operations. */
export async function runConsumer(m: MagentoAsync, messages: number): Promise<void> {
  const result = await m.d.t.cli('queue:consumers:start', 'async.operations.all', '--max-messages', String(messages));
  expect(result.code, result.err.join('\n')).to.equal(0);
}

/** How many of these skus exist (Magento's assertProductCreation / checkProductsCreation). */
export async function productsCreated(m: MagentoAsync, skus: readonly string[]): Promise<number> {
  let found = 0;
  for (const sku of skus) {
    const res = await m.d
      .request()
      .get(`/rest/all/V1/products/${encodeURIComponent(sku)}`)
      .set('Authorization', `Bearer ${m.admin}`);
    if (res.status === 200) found++;
  }
  return found;
}

/** `_webApiCall` with the admin token; `storeCode` null is `/rest/V1/...`. */
export function webApiCall(
  m: MagentoAsync,
  method: 'get' | 'post' | 'put' | 'delete',
  resourcePath: string,
  body?: unknown,
  storeCode: string | null = null,
) {
  const agent = m.d.request();
  const req = agent[method](`/rest${storeCode ? `/${storeCode}` : ''}${resourcePath}`).set(
    'Authorization',
    `Bearer ${m.admin}`,
  );
  return body === undefined ? req : req.send(body as object);
}
