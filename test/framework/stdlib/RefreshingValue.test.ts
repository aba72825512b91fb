import { expect } from 'chai';
import type { Knex } from 'knex';
import { ADMIN_STORE, GUEST, requestContext } from '../../../app/framework/context/RequestContext.js';
import { RefreshingValue } from '../../../app/framework/stdlib/RefreshingValue.js';

describe('RefreshingValue', () => {
  let time: number;
  let loads: number;
  let gate: Promise<void>;
  const value = () =>
    new RefreshingValue(
      async () => {
        const n = ++loads;
        await gate;
        return n;
      },
      1000,
      () => time,
    );
  beforeEach(() => {
    time = 0;
    loads = 0;
    gate = Promise.resolve();
  });

  it('should read once within the age, and again after it', async () => {
    const v = value();
    expect(await v.get()).to.equal(1);
    time = 999;
    expect(await v.get()).to.equal(1);
    time = 1000;
    expect(await v.get()).to.equal(2);
    expect(loads).to.equal(2);
  });

  it('should share one load among concurrent callers', async () => {
    const v = value();
    expect(await Promise.all([v.get(), v.get(), v.get()])).to.deep.equal([1, 1, 1]);
    expect(loads).to.equal(1);
  });

  it('should read again at once after invalidate, and not keep a load that began before it', async () => {
    const v = value();
    expect(await v.get()).to.equal(1);
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    v.invalidate();
    const stale = v.get(); // load 2 begins
    v.invalidate(); // this process changed the state meanwhile
    const fresh = v.get(); // load 3 begins
    open();
    expect([await stale, await fresh]).to.deep.equal([2, 3]);
    gate = Promise.resolve();
    expect(await v.get()).to.equal(3);
    expect(loads).to.equal(3);
  });

  describe('in requests', () => {
    const inRequest = <R>(fn: () => R, transaction?: object): R =>
      requestContext.run(
        { requestId: 'r', store: ADMIN_STORE, caller: GUEST, transaction: transaction as Knex.Transaction },
        fn,
      );

    it("should run the shared load outside any request, so never in a caller's transaction", async () => {
      let seen: unknown = 'not loaded';
      const v = new RefreshingValue(async () => (seen = requestContext.current()), 1000);
      await inRequest(() => v.get());
      expect(seen).to.equal(undefined);
    });

    it('should not make a caller inside a unit of work wait for the shared load: it reads in its own transaction, and that read is not kept', async () => {
      const v = value();
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      const shared = inRequest(() => v.get()); // load 1, waiting (for a connection)
      gate = Promise.resolve();
      expect(await inRequest(() => v.get(), {})).to.equal(2); // its own read, at once
      open();
      expect(await shared).to.equal(1);
      expect(await v.get()).to.equal(1); // the shared load is kept, the transaction's read is not
      expect(await inRequest(() => v.get(), {})).to.equal(1); // within the age, the kept value
      expect(loads).to.equal(2);
    });
  });
});
