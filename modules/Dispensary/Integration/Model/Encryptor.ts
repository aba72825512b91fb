import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FrameworkServices, inject, injectable } from '#framework';

/** The deployment settings this class reads (see the main README's Configuration table). */
export interface CryptSettings {
  readonly cryptKey: string | null;
  readonly cryptKeyFile: string;
}

const KEY_TEXT = /^[0-9a-fA-F]{64}$/;
const VERSION = 'v1';

/**
 * Magento's Encryptor: AES-256-GCM over secrets the server must read back (OAuth consumer and
 * token secrets: HMAC needs them in clear). The key is never in the database: it is `CRYPT_KEY`
 * (64 hex characters, as Magento keeps its crypt key in env.php), or else a key file, by default
 * `var/crypt.key`, created with mode 0600 on first start. Each ciphertext is bound to its row by
 * the associated data (`context`), so ciphertexts cannot be swapped between rows.
 */
@injectable()
export class Encryptor {
  private key?: Buffer;

  constructor(@inject(FrameworkServices.DeploymentConfig) private readonly settings: CryptSettings) {}

  encrypt(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.cryptKey(), iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')}`;
  }

  /** Throws when the ciphertext was made under another key or context, or was altered. */
  decrypt(stored: string, context: string): string {
    const [version, payload] = stored.split(':');
    if (version !== VERSION || !payload) throw new Error('Unknown ciphertext format');
    const raw = Buffer.from(payload, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.cryptKey(), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** Loads (and on first start creates) the key; a bad key is an error naming where it came from. */
  cryptKey(): Buffer {
    if (this.key) return this.key;
    if (this.settings.cryptKey !== null) {
      if (!KEY_TEXT.test(this.settings.cryptKey))
        throw new Error('CRYPT_KEY must be 64 hex characters (a 256-bit key): e.g. `openssl rand -hex 32`');
      return (this.key = Buffer.from(this.settings.cryptKey, 'hex'));
    }
    const file = this.settings.cryptKeyFile;
    let text = readKeyFile(file);
    if (text === null) {
      createKeyFile(file);
      text = readKeyFile(file) ?? '';
    }
    if (!KEY_TEXT.test(text)) throw new Error(`The crypt key file ${file} must hold 64 hex characters`);
    return (this.key = Buffer.from(text, 'hex'));
  }
}

function readKeyFile(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Written whole to a temporary file, then linked into place: several processes starting at once agree on one key. */
function createKeyFile(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another process won: use its key
  } finally {
    unlinkSync(temporary);
  }
}
