import { expect } from 'chai';
import { scryptCost, trustProxy, wholeNumber } from '../../../../app/bootstrap/config/settings.js';

describe('Bootstrap: deployment settings', () => {
  it('should read whole numbers, fall back when unset, and name the variable when one does not parse', () => {
    expect(wholeNumber('X', undefined, 6)).to.equal(6);
    expect(wholeNumber('X', ' ', 6)).to.equal(6);
    expect(wholeNumber('X', '0', 6)).to.equal(0);
    expect(wholeNumber('X', '12', 6)).to.equal(12);
    for (const bad of ['-1', '1.5', 'ten', '1e3'])
      expect(() => wholeNumber('ADMIN_LOCKOUT_FAILURES', bad, 6), bad).to.throw(/ADMIN_LOCKOUT_FAILURES/);
    expect(() => wholeNumber('ADMIN_LOCKOUT_MINUTES', '0', 30, 1)).to.throw(/at least 1/);
  });

  it('should take a scrypt cost only as a power of two from 2^10 to 2^20', () => {
    expect(scryptCost('PASSWORD_SCRYPT_COST', undefined, 131072)).to.equal(131072);
    expect(scryptCost('PASSWORD_SCRYPT_COST', '1024', 131072)).to.equal(1024);
    for (const bad of ['1000', '512', String(2 ** 21)])
      expect(() => scryptCost('PASSWORD_SCRYPT_COST', bad, 131072), bad).to.throw(/PASSWORD_SCRYPT_COST/);
  });

  it('should read TRUST_PROXY as Express reads `trust proxy`', () => {
    expect(trustProxy(undefined)).to.equal(false);
    expect(trustProxy('false')).to.equal(false);
    expect(trustProxy('true')).to.equal(true);
    expect(trustProxy('2')).to.equal(2);
    expect(trustProxy('loopback, 10.0.0.0/8')).to.equal('loopback, 10.0.0.0/8');
  });
});
