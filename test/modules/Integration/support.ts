import { Writable } from 'node:stream';
import pino from 'pino';
import type { Clock, Logger } from '../../../app/framework/index.js';
import type { TestApp } from '../../support/testApp.js';

export const TOKEN_ROUTE = '/rest/V1/integration/admin/token';

export const INVALID_CREDENTIALS = {
  message:
    'The account sign-in was incorrect or your account is disabled temporarily. Please wait and try again later.',
};

/** A clock the test moves by hand. */
export class FakeClock implements Clock {
  private ms = Date.parse('2026-11-23T10:00:00Z');

  now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}

/** A pino logger whose JSON lines the test can read. */
export function captureLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

export function login(t: TestApp, username: string, password: string, headers: Record<string, string> = {}) {
  const req = t.request().post(TOKEN_ROUTE).send({ username, password });
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req;
}

export async function createAdmin(t: TestApp, username: string, password: string): Promise<void> {
  const result = await t.cli('admin:user:create', '--username', username, '--password', password);
  if (result.code !== 0) throw new Error(`admin:user:create failed: ${result.err.join('\n')}`);
}

/** Hashing cost for tests that make dozens of hashes: 2^10, a few ms (the default, 2^17, takes ~0.3 s each). */
export const FAST_HASHING = { scryptCost: 1024 } as const;
