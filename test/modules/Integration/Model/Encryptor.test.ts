import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Encryptor } from '../../../../modules/Dispensary/Integration/Model/Encryptor.js';

const KEY_A = 'a'.repeat(64);
const KEY_B = '0123456789abcdef'.repeat(4);

describe('Integration: Encryptor', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'encryptor-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const withKey = (cryptKey: string) => new Encryptor({ cryptKey, cryptKeyFile: path.join(dir, 'unused.key') });
  const withFile = (file = path.join(dir, 'var', 'crypt.key')) => new Encryptor({ cryptKey: null, cryptKeyFile: file });

  describe('a round trip', () => {
    it('should decrypt what it encrypted, for empty, ASCII and multi-byte text', () => {
      const encryptor = withKey(KEY_A);
      for (const plain of ['', 'consumer-secret', 'ümlaut ✓ 😀', 'x'.repeat(10_000)]) {
        const stored = encryptor.encrypt(plain, 'oauth_consumer:1');
        expect(stored).to.match(/^v1:[A-Za-z0-9+/]+=*$/);
        expect(encryptor.decrypt(stored, 'oauth_consumer:1')).to.equal(plain);
      }
    });

    it('should answer a new ciphertext each time (a fresh IV), never the plain text', () => {
      const encryptor = withKey(KEY_A);
      const one = encryptor.encrypt('same secret', 'c');
      const two = encryptor.encrypt('same secret', 'c');
      expect(one).to.not.equal(two);
      expect(Buffer.from(one.slice(3), 'base64').toString('latin1')).to.not.contain('same secret');
    });
  });

  describe('tampering and misuse', () => {
    it('should refuse a ciphertext bound to another context (a secret moved to another row)', () => {
      const encryptor = withKey(KEY_A);
      const stored = encryptor.encrypt('secret', 'oauth_token:row-1');
      expect(() => encryptor.decrypt(stored, 'oauth_token:row-2')).to.throw();
    });

    it('should refuse a ciphertext with one bit flipped in the IV, the tag or the data', () => {
      const encryptor = withKey(KEY_A);
      const stored = encryptor.encrypt('a secret of some length', 'c');
      const raw = Buffer.from(stored.slice(3), 'base64');
      for (const at of [0, 11, 12, 27, 28, raw.length - 1]) {
        const altered = Buffer.from(raw);
        altered[at]! ^= 1;
        expect(() => encryptor.decrypt(`v1:${altered.toString('base64')}`, 'c'), `byte ${at}`).to.throw();
      }
    });

    it('should refuse a truncated ciphertext, an unknown version and text without a version', () => {
      const encryptor = withKey(KEY_A);
      const stored = encryptor.encrypt('secret', 'c');
      expect(() => encryptor.decrypt(stored.slice(0, 20), 'c')).to.throw();
      expect(() => encryptor.decrypt(stored.replace(/^v1:/, 'v2:'), 'c')).to.throw('Unknown ciphertext format');
      expect(() => encryptor.decrypt('plain secret', 'c')).to.throw('Unknown ciphertext format');
      expect(() => encryptor.decrypt('v1:', 'c')).to.throw('Unknown ciphertext format');
    });

    it('should not decrypt under another key (the key changed: no rotation, the secrets are lost)', () => {
      const stored = withKey(KEY_A).encrypt('secret', 'c');
      expect(() => withKey(KEY_B).decrypt(stored, 'c')).to.throw();
      expect(withKey(KEY_A.toUpperCase()).decrypt(stored, 'c')).to.equal('secret');
    });
  });

  describe('the key', () => {
    it('should refuse a CRYPT_KEY that is not 64 hex characters, naming the setting', () => {
      for (const bad of ['', 'a'.repeat(63), 'a'.repeat(65), 'g'.repeat(64), ` ${'a'.repeat(63)}`]) {
        expect(() => withKey(bad).encrypt('x', 'c'), JSON.stringify(bad)).to.throw(
          /CRYPT_KEY must be 64 hex characters/,
        );
      }
    });

    it('should create the key file (and its folder) on first use with mode 0600, and reuse it afterwards', () => {
      const file = path.join(dir, 'var', 'crypt.key');
      const stored = withFile(file).encrypt('secret', 'c');
      const text = readFileSync(file, 'utf8');
      expect(text).to.match(/^[0-9a-f]{64}\n$/);
      if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(withFile(file).decrypt(stored, 'c')).to.equal('secret');
      expect(readFileSync(file, 'utf8')).to.equal(text);
    });

    it('should read a key file an operator wrote (whitespace around), and refuse a bad one by name', () => {
      const file = path.join(dir, 'given.key');
      writeFileSync(file, `  ${KEY_B}\n\n`);
      const stored = withFile(file).encrypt('secret', 'c');
      expect(withKey(KEY_B).decrypt(stored, 'c')).to.equal('secret');
      writeFileSync(file, 'not a key\n');
      expect(() => withFile(file).cryptKey()).to.throw(`The crypt key file ${file} must hold 64 hex characters`);
    });

    it('should prefer CRYPT_KEY over the key file, and leave the file alone', () => {
      const file = path.join(dir, 'never.key');
      const encryptor = new Encryptor({ cryptKey: KEY_A, cryptKeyFile: file });
      expect(encryptor.cryptKey().toString('hex')).to.equal(KEY_A);
      expect(() => statSync(file)).to.throw(/ENOENT/);
    });

    it('should agree on one key when several encryptors create the file at once', async () => {
      const file = path.join(dir, 'var', 'crypt.key');
      const keys = await Promise.all(Array.from({ length: 8 }, async () => withFile(file).cryptKey().toString('hex')));
      expect(new Set(keys).size).to.equal(1);
      expect(readFileSync(file, 'utf8').trim()).to.equal(keys[0]);
    });
  });
});
