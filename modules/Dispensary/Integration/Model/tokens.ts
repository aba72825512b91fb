import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const TOKEN_PATTERN = /^[a-z0-9]{32}$/;

/** 32 lower-case letters and digits, uniform (rejection sampling, no modulo bias). */
export function generateToken(): string {
  let token = '';
  while (token.length < 32) {
    for (const byte of randomBytes(48)) {
      if (byte < 252 && token.length < 32) token += ALPHABET[byte % 36];
    }
  }
  return token;
}

export function hashToken(token: string): string {
  // One-shot hash(): a third of createHash()'s cost, on every authenticated request.
  return hash('sha256', token, 'hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
