import { expect } from 'chai';
import { ServiceUnavailableException } from '../../../../app/framework/index.js';
import { httpHeadersOf, httpStatusOf } from '../../../../app/framework/webapi/ErrorProcessor.js';
import { HashingSlots } from '../../../../modules/Dispensary/Integration/Model/HashingSlots.js';

describe('Integration: HashingSlots', () => {
  it('should run at most `concurrency` at once, queue `maxWaiting` in order, and refuse the rest with a 503', async () => {
    const slots = new HashingSlots(2, 2);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const work = (i: number) => async () => {
      running++;
      most = Math.max(most, running);
      await gate;
      order.push(i);
      running--;
      return i;
    };
    const calls = [0, 1, 2, 3, 4, 5].map((i) =>
      slots.run(work(i)).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect([slots.running, slots.queued]).to.deep.equal([2, 2]);
    release();
    const results = await Promise.all(calls);
    expect(results.slice(0, 4)).to.deep.equal([{ value: 0 }, { value: 1 }, { value: 2 }, { value: 3 }]);
    for (const result of results.slice(4)) {
      const error = (result as { error: ServiceUnavailableException }).error;
      expect(error).to.be.instanceOf(ServiceUnavailableException);
      expect(httpStatusOf(error)).to.equal(503);
      expect(httpHeadersOf(error)).to.deep.equal({ 'Retry-After': '1' });
    }
    expect(most).to.equal(2);
    expect(order).to.deep.equal([0, 1, 2, 3]);
    expect([slots.running, slots.queued]).to.deep.equal([0, 0]);
  });

  it('should free the slot when the work fails', async () => {
    const slots = new HashingSlots(1, 0);
    await slots.run(() => Promise.reject(new Error('boom'))).catch(() => undefined);
    expect(await slots.run(async () => 'next')).to.equal('next');
  });
});
