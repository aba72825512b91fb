import { expect } from 'chai';
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
});
