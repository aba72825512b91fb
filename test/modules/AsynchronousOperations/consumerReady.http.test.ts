/**
 * "consumer: started" is the readiness signal operators and the process tests wait for: it must
 * mean the consumer is subscribed, not merely that the process booted. Logged too early, a second
 * consumer could look ready while the first drained the whole queue alone.
 */
import { createServer, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Dispensary } from '../Recommendation/support.js';
import { ConsumerProcess, runPrefix } from './support.js';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('Async consumer readiness', function () {
  this.timeout(60_000);
  let d: Dispensary;
  let consumer: ConsumerProcess | undefined;
  before(async () => {
    d = await Dispensary.start({ amqpUrl: null, queuePrefix: runPrefix() });
  });
  after(async () => {
    await consumer?.stop('SIGKILL');
    await d?.stop();
  });

  it('should not say "consumer: started" while the broker cannot be reached, and say it once subscribed on the db queue', async () => {
    consumer = ConsumerProcess.spawn(d.t.databaseUrl, {
      amqpUrl: `amqp://guest:guest@127.0.0.1:${await closedPort()}`,
      queuePrefix: runPrefix(),
    });
    const deadline = Date.now() + 30_000;
    while (!consumer.output.join('').includes('cannot be reached')) {
      expect(Date.now() < deadline && consumer.child.exitCode === null, consumer.output.join('')).to.equal(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(consumer.output.join('')).to.not.include('consumer: started');
    await consumer.stop('SIGKILL');

    consumer = ConsumerProcess.spawn(d.t.databaseUrl, { amqpUrl: null, queuePrefix: runPrefix() });
    await consumer.ready();
  });
});
