import { expect } from 'chai';
import { nowTimestamp } from '../../../app/framework/db/dialect.js';

describe('timestamps', () => {
  it("should write a time as UTC in Magento's YYYY-MM-DD HH:MM:SS, dropping milliseconds", () => {
    expect(nowTimestamp(new Date('2026-11-22T14:08:29.987Z'))).to.equal('2026-11-22 14:08:29');
    expect(nowTimestamp(new Date('2026-01-02T03:04:05+02:00'))).to.equal('2026-01-02 01:04:05');
  });

  it('should default to the current time', () => {
    const before = nowTimestamp();
    const now = nowTimestamp();
    const after = nowTimestamp();
    expect(now).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(before <= now && now <= after).to.equal(true);
  });
});
