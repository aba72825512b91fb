import { expect } from 'chai';
import type { ApplicationOptions } from '../../../app/bootstrap/Application.js';
import { createAdmin, FAST_HASHING, login } from '../Integration/support.js';
import { Dispensary } from '../Recommendation/support.js';

export const ADD_ITEMS = 'plugin.dispensary.recommendation.api.recommendation_item_management.add_items';

/** The dispensary, an admin token (for the webhook routes) and helpers to subscribe hooks. */
export class WebhookWorld {
  private readonly subscribed: Record<string, unknown>[] = [];

  private constructor(
    readonly d: Dispensary,
    readonly adminToken: string,
  ) {}

  static async start(options: ApplicationOptions = {}): Promise<WebhookWorld> {
    const d = await Dispensary.start({ passwordHashing: FAST_HASHING, ...options });
    await createAdmin(d.t, 'hookadmin', 'hook-admin-password-1');
    const res = await login(d.t, 'hookadmin', 'hook-admin-password-1');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return new WebhookWorld(d, res.body as string);
  }

  subscribeRaw(webhook: Record<string, unknown>, token = this.adminToken) {
    return this.d
      .request()
      .post('/rest/V1/webhooks/subscribe')
      .set('Authorization', `Bearer ${token}`)
      .send({ webhook });
  }

  /** Subscribes (asserting 200) and answers the body; unsubscribed by `clear()`. */
  async subscribe(webhook: Record<string, unknown>): Promise<Record<string, unknown>> {
    const full = { webhook_type: 'before', batch_name: 'b1', hook_name: 'h1', webhook_method: ADD_ITEMS, ...webhook };
    const res = await this.subscribeRaw(full);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    this.subscribed.push(full);
    return res.body as Record<string, unknown>;
  }

  async clear(): Promise<void> {
    for (const webhook of this.subscribed.splice(0)) {
      const res = await this.d
        .request()
        .post('/rest/V1/webhooks/unsubscribe')
        .set('Authorization', `Bearer ${this.adminToken}`)
        .send({ webhook });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  }

  async stop(): Promise<void> {
    await this.d.stop();
  }
}
