import { Writable } from 'node:stream';
import { expect } from 'chai';
import { StdoutDestination } from '../../../app/framework/logging/StdoutDestination.js';

/** A stream whose reader never reads: the first write never completes, the rest queue. */
const stuck = () => new Writable({ write: () => undefined });

describe('StdoutDestination', () => {
  it('should keep at most maxBuffered bytes waiting and drop (and count) the rest', () => {
    const stream = stuck();
    const destination = new StdoutDestination(stream, 1000);
    for (let i = 0; i < 100; i++) destination.write(`${'x'.repeat(99)}\n`);
    expect(stream.writableLength).to.be.at.most(1100);
    expect(destination.dropped).to.be.greaterThan(80);
  });

  it('should stop writing after the stream fails (a broken pipe) instead of throwing', () => {
    const stream = new Writable({
      write: (_chunk, _enc, done) => done(Object.assign(new Error('EPIPE'), { code: 'EPIPE' })),
    });
    const destination = new StdoutDestination(stream);
    destination.write('a\n');
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      expect(() => destination.write('b\n')).to.not.throw();
      expect(destination.dropped).to.equal(1);
    });
  });

  it('should give up flushing after the timeout when nobody reads', async () => {
    const stream = stuck();
    const destination = new StdoutDestination(stream);
    destination.write('line\n');
    destination.write('line\n');
    await destination.flush(50);
    expect(stream.writableLength).to.be.greaterThan(0);
  });
});
