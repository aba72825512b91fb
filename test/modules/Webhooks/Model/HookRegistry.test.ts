import { expect } from 'chai';
import { ADMIN_STORE, GUEST, requestContext } from '../../../../app/framework/context/RequestContext.js';
import { UnitOfWork } from '../../../../app/framework/db/UnitOfWork.js';
import type { WebhookData } from '../../../../modules/Dispensary/Webhooks/Api/WebhookManagementInterface.js';
import type { HookRegistry } from '../../../../modules/Dispensary/Webhooks/Model/HookRegistry.js';
import type { SubscriptionRepository } from '../../../../modules/Dispensary/Webhooks/Model/SubscriptionRepository.js';
import { TestApp } from '../../../support/testApp.js';

interface Pool {
  max: number;
  acquire(): { promise: Promise<unknown> };
  release(connection: unknown): boolean;
}

/**
 * HookRegistry: webhooks.xml and the run-time subscriptions, which are cached (a RefreshingValue)
 * and read again once a second, by one load shared between requests.
 *
 * The pool case. Found on CI's PostgreSQL run (HookRegistry, a RefreshingValue) and read again
 * once a second, by one load shared between requests. Found on CI's PostgreSQL run
 * (concurrency.http.test.ts, 8 answers 503 after a minute): a request inside its unit of work
 * (the after hooks, the observer.* hooks of the events it dispatches) waited for a load that a
 * request outside one (its before hooks) had begun on the pool; when every other pooled connection
 * belonged to a transaction queued behind the first request's row lock, that load waited for the
 * first request, until the pool's acquire timeout. The same on SQLite, whose one connection a unit
 * of work holds.
 */
describe('HookRegistry', function () {
  // Failing, the unit of work waits for the pool's acquire timeout (60 s, knex's default on SQLite).
  this.timeout(90_000);
  let t: TestApp;
  let registry: HookRegistry;
  let pool: Pool;

  before(async () => {
    t = await TestApp.start();
    registry = t.app.get<HookRegistry>('Dispensary\\Webhooks\\Model\\HookRegistry');
    pool = (t.app.knex.client as unknown as { pool: Pool }).pool;
  });
  after(async () => t?.stop());

  const context = (requestId: string) => ({ requestId, store: ADMIN_STORE, caller: GUEST });

  it('should answer the hooks inside a unit of work holding the last connection, while a read outside waits for one (never a wait the pool cannot end)', async () => {
    // Every pooled connection but one is taken (none on SQLite, whose pool has one).
    const taken = await Promise.all(Array.from({ length: pool.max - 1 }, () => pool.acquire().promise));
    let outside: Promise<unknown> | undefined;
    try {
      registry.invalidate(); // this process changed the subscriptions: the next call reads them
      const inside = requestContext.run(context('holder'), () =>
        new UnitOfWork(t.app.knex).run(async () => {
          // A request before its unit of work (its plugin.* before hooks) begins the shared read,
          // which now waits for this unit of work's connection...
          outside = requestContext.run(context('waiter'), () => registry.hooksFor('plugin.x', 'before'));
          // ...and this one, holding the connection, must not wait for that read.
          return registry.hooksFor('plugin.x', 'after');
        }),
      );
      const bounded = new Promise((_, reject) => {
        const timer = setTimeout(() => reject(new Error('the unit of work waited for the shared read')), 5000);
        void inside.finally(() => clearTimeout(timer)).catch(() => undefined);
      });
      expect(await Promise.race([inside, bounded])).to.deep.equal([]);
      expect(await outside).to.deep.equal([]); // the read outside gets the connection once the unit of work ends
    } finally {
      for (const connection of taken) pool.release(connection);
      await outside?.catch(() => undefined);
    }
  });

  it('should read the subscriptions again once a change commits, not keep what another request read before the commit', async () => {
    const repository = t.app.get<SubscriptionRepository>('Dispensary\\Webhooks\\Model\\SubscriptionRepository');
    const hook = {
      webhook_method: 'plugin.commit.case',
      webhook_type: 'before',
      batch_name: 'b',
      batch_order: 0,
      hook_name: 'h',
      url: 'https://receiver.example/hook',
      priority: 0,
      required: true,
      soft_timeout: null,
      timeout: 5000,
      method: 'POST',
      fallback_error_message: null,
      ttl: 0,
      fields: [],
      rules: [],
      headers: [],
    } satisfies WebhookData;
    const outside = () => requestContext.run(context('reader'), () => registry.hooksFor(hook.webhook_method, 'before'));
    expect(await outside()).to.deep.equal([]);
    try {
      await requestContext.run(context('subscriber'), () =>
        new UnitOfWork(t.app.knex).run(async () => {
          // What WebhookManagement.subscribe does.
          await repository.save(hook, 'a-secret');
          registry.invalidate();
          // Another request reads meanwhile: on a server database it reads the committed state,
          // without the hook (SQLite's one connection makes it wait for the commit instead).
          const meanwhile = outside();
          if (t.app.knex.client.config.client !== 'better-sqlite3') expect(await meanwhile).to.deep.equal([]);
        }),
      );
      expect((await outside()).map((h) => h.hook_name)).to.deep.equal(['h']);
    } finally {
      await requestContext.run(context('cleanup'), async () => {
        await repository.delete(hook);
        registry.invalidate();
      });
    }
  });
});
