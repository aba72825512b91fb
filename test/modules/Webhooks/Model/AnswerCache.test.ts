/** AnswerCache.ts (issue 25, point 6): `ttl` answers under a hash of what was sent, within a bound in bytes. */
import { expect } from 'chai';
import { AnswerCache } from '../../../../modules/Dispensary/Webhooks/Model/AnswerCache.js';

describe('AnswerCache: answers by hash, bounded in bytes', () => {
  it('should key by the hex SHA-256 of what was sent, distinct for distinct parts', () => {
    const key = AnswerCache.key('hook', 'http://127.0.0.1/', '{"payload":"x"}');
    expect(key).to.match(/^[0-9a-f]{64}$/);
    expect(AnswerCache.key('ab', 'c')).to.not.equal(AnswerCache.key('a', 'bc'));
  });

  it('should evict the oldest answers when the bound in bytes is reached, and keep none larger than it', () => {
    const cache = new AnswerCache<string>(1000);
    const keys = ['one', 'two', 'three'].map((part) => AnswerCache.key(part));
    cache.set(keys[0]!, 'first', 60, 400);
    cache.set(keys[1]!, 'second', 60, 400);
    expect(cache.keys()).to.deep.equal([keys[0], keys[1]]);
    cache.set(keys[2]!, 'third', 60, 400);
    expect(cache.keys()).to.deep.equal([keys[1], keys[2]]);
    expect(cache.get(keys[0]!)).to.equal(undefined);
    expect(cache.get(keys[2]!)).to.equal('third');
    expect(cache.bytes).to.be.at.most(1000);
    cache.set(AnswerCache.key('huge'), 'huge', 60, 5000);
    expect(cache.keys()).to.deep.equal([keys[1], keys[2]]);
  });

  it('should not answer an expired entry, and free its bytes', () => {
    let now = 0;
    const cache = new AnswerCache<string>(1000, () => now);
    const key = AnswerCache.key('x');
    cache.set(key, 'kept', 10, 100);
    now = 9_999;
    expect(cache.get(key)).to.equal('kept');
    now = 10_000;
    expect(cache.get(key)).to.equal(undefined);
    expect(cache.bytes).to.equal(0);
  });
});
