/**
 * The real server (`node dist/app/bin/server.js`) whose log reader misbehaves: a stdout pipe that
 * is never read, or one whose reader is gone. Logging must not stall requests, SIGTERM must end
 * the process within SHUTDOWN_GRACE_MS plus a second (asserted with a generous bound: this is a
 * behaviour, not a speed goal), and a second signal must end it at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { freePort } from '../support/serverProcess.js';
import { RawClient } from './support.js';

const GRACE_MS = 1_500;
/** Grace + 5 s: generous, so only a hung process fails it. */
const EXIT_BOUND_MS = GRACE_MS + 5_000;
/** A valid client request id of the maximum length: each request's log line carries it, so lines add up fast. */
const LONG_ID = 'r'.repeat(128);

interface Server {
  child: ChildProcess;
  port: number;
  exited: Promise<{ code: number | null; signal: string | null }>;
}

async function startServer(database: TestDatabase, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'server.js')], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1_000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) return { child, port, exited };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

/** Requests whose log lines add up to well over a pipe's 64 KiB; each must be answered (the loop is not stalled). */
async function logALot(port: number, count = 400): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/rest/V1/no-such-route`, {
      headers: { 'X-Request-Id': LONG_ID },
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).to.equal(404);
    await res.arrayBuffer();
  }
}

/** Resolves with the exit, or null when the process is still running after `ms`. */
function exitWithin(server: Server, ms: number): Promise<{ code: number | null; signal: string | null } | null> {
  return Promise.race([server.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);
}

describe('Abuse: shutdown with a misbehaving log reader', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let server: Server | undefined;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    server = undefined;
    await database.release();
  });

  it('should keep answering and exit 0 on SIGTERM when stdout is a pipe nobody reads', async () => {
    server = await startServer(database);
    server.child.stdout!.pause();
    await logALot(server.port);
    server.child.kill('SIGTERM');
    const exit = await exitWithin(server, EXIT_BOUND_MS);
    expect(exit, 'still running after grace + 5 s').to.not.equal(null);
    expect(exit!.code).to.equal(0);
  });

  it('should keep answering and exit 0 on SIGTERM when the stdout reader has gone away', async () => {
    server = await startServer(database);
    server.child.stdout!.destroy();
    await logALot(server.port, 100);
    server.child.kill('SIGTERM');
    const exit = await exitWithin(server, EXIT_BOUND_MS);
    expect(exit, 'still running after grace + 5 s').to.not.equal(null);
    expect(exit!.code).to.equal(0);
  });

  it('should close a request that outlives the grace period and still exit within the bound', async () => {
    server = await startServer(database, { BODY_TIMEOUT_MS: '120000' });
    server.child.stdout!.resume();
    const client = new RawClient(server.port);
    try {
      client.write(
        'POST /rest/V1/integration/admin/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      server.child.kill('SIGTERM');
      const exit = await exitWithin(server, EXIT_BOUND_MS);
      expect(exit, 'still running after grace + 5 s').to.not.equal(null);
    } finally {
      client.destroy();
    }
  });

  it('should exit at once on a second signal, without waiting for the grace period', async () => {
    server = await startServer(database, { SHUTDOWN_GRACE_MS: '600000', BODY_TIMEOUT_MS: '600000' });
    server.child.stdout!.resume();
    const client = new RawClient(server.port);
    try {
      // A request in flight that would hold the first shutdown for the whole (10-minute) grace period.
      client.write(
        'POST /rest/V1/integration/admin/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      server.child.kill('SIGTERM');
      expect(await exitWithin(server, 500), 'the first SIGTERM waits for the request').to.equal(null);
      server.child.kill('SIGTERM');
      const exit = await exitWithin(server, 5_000);
      expect(exit, 'still running 5 s after the second SIGTERM').to.not.equal(null);
      expect(exit!.code).to.equal(143);
    } finally {
      client.destroy();
    }
  });
});
