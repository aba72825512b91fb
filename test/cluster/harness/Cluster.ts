/**
 * A cluster on one machine: the network of network.ts, the data host's forwarders, a Redis of the
 * harness's own in the `cache` namespace, one database (schema) of the run's own on the machine's
 * PostgreSQL or MariaDB, and the service's processes in their namespaces, started as an operator
 * starts them (`node dist/app/bin/server.js`, `node dist/app/bin/cli.js queue:consumers:start`).
 * Every wait is bounded in count and time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { Forwarder } from './forwarder.js';
import { createNetwork, DATA_ADDRESS, HOSTS, namespaceOf, removeNetwork, type HostName } from './network.js';

export const API_PORT = 3000;
const REDIS_PORT = 6379;
/** The database the cluster runs on: CLUSTER_DATABASE_URL, PostgreSQL by default. */
export const DATABASE_SERVER = process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const AMQP_SERVER = process.env.CLUSTER_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

export interface Answer {
  status: number;
  body: unknown;
  ms: number;
}

export interface ClusterOptions {
  /** Which service hosts run: api1/api2 serve HTTP, worker consumes the queue. */
  readonly run: readonly ('api1' | 'api2' | 'worker')[];
  /** Environment of every service process (over the cluster's own). */
  readonly env?: Record<string, string>;
  /** Use RabbitMQ (through the data host) for the async API. */
  readonly amqp?: boolean;
}

class HostProcess {
  readonly output: string[] = [];
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
  }
}

export class Cluster {
  private readonly processes = new Map<HostName, HostProcess>();
  readonly forwarders = new Map<string, Forwarder>();
  private redis?: HostProcess;
  readonly cryptKey = randomBytes(32).toString('hex');
  readonly queuePrefix = `cluster_${process.pid}_${randomBytes(3).toString('hex')}_`;

  private constructor(
    readonly database: TestDatabase,
    readonly options: ClusterOptions,
  ) {}

  static async start(options: ClusterOptions): Promise<Cluster> {
    createNetwork();
    const previous = process.env.TEST_DATABASE_URL;
    process.env.TEST_DATABASE_URL = DATABASE_SERVER;
    const database = await createTestDatabase().finally(() => {
      if (previous === undefined) delete process.env.TEST_DATABASE_URL;
      else process.env.TEST_DATABASE_URL = previous;
    });
    const cluster = new Cluster(database, options);
    try {
      await cluster.startDataHost();
      const setup = await cluster.cli('setup:upgrade');
      if (setup.code !== 0) throw new Error(`setup:upgrade failed: ${setup.err}`);
      for (const host of options.run) cluster.startHost(host);
      await Promise.all(options.run.map((host) => cluster.ready(host)));
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  /** The URL of the database as the hosts reach it: the data host's forwarder. */
  get hostDatabaseUrl(): string {
    const url = new URL(this.database.url);
    url.hostname = DATA_ADDRESS;
    return url.toString();
  }

  get dialect(): 'postgres' | 'mysql' {
    return this.database.url.startsWith('postgres') ? 'postgres' : 'mysql';
  }

  private async startDataHost(): Promise<void> {
    const dbPort = Number(new URL(this.database.url).port || (this.dialect === 'postgres' ? 5432 : 3306));
    const ports: [string, number][] = [['database', dbPort]];
    if (this.options.amqp) ports.push(['amqp', Number(new URL(AMQP_SERVER).port || 5672)]);
    for (const [name, port] of ports) {
      const forwarder = new Forwarder(DATA_ADDRESS, port, port);
      await forwarder.start();
      this.forwarders.set(name, forwarder);
    }
    // Redis of the harness's own, in memory only, on the cache host.
    this.redis = new HostProcess(
      spawn(
        'ip',
        [
          'netns',
          'exec',
          namespaceOf('cache'),
          'redis-server',
          '--bind',
          HOSTS.cache.data,
          '--port',
          String(REDIS_PORT),
          '--save',
          '',
          '--appendonly',
          'no',
          '--protected-mode',
          'no',
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      ),
    );
    const deadline = Date.now() + 10_000;
    while (!this.redis.output.join('').includes('Ready to accept connections')) {
      if (Date.now() > deadline || this.redis.child.exitCode !== null)
        throw new Error(`redis-server did not start: ${this.redis.output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The environment every service process gets. */
  serviceEnv(): Record<string, string> {
    const env: Record<string, string> = {
      DATABASE_URL: this.hostDatabaseUrl,
      CRYPT_KEY: this.cryptKey,
      REDIS_URL: `redis://${HOSTS.cache.data}:${REDIS_PORT}`,
      QUEUE_PREFIX: this.queuePrefix,
      LOG_LEVEL: 'warn',
      PASSWORD_SCRYPT_COST: '1024',
      ADMIN_LOGIN_FAILURE_DELAY_MS: '0',
    };
    if (this.options.amqp) {
      const amqp = new URL(AMQP_SERVER);
      amqp.hostname = DATA_ADDRESS;
      env.AMQP_URL = amqp.toString();
    }
    return { ...env, ...this.options.env };
  }

  startHost(host: 'api1' | 'api2' | 'worker'): void {
    const spec = HOSTS[host];
    const args =
      host === 'worker'
        ? [path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'cli.js'), 'queue:consumers:start', 'async.operations.all']
        : [path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'server.js')];
    const env = { ...this.serviceEnv(), ...('front' in spec ? { HOST: spec.front, PORT: String(API_PORT) } : {}) };
    const child = spawn('ip', ['netns', 'exec', namespaceOf(host), process.execPath, ...args], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.processes.set(host, new HostProcess(child));
  }

  /** Waits until the API host's /health answers 200 (a worker: a moment to connect). */
  async ready(host: HostName, timeoutMs = 30_000): Promise<void> {
    const proc = this.processes.get(host)!;
    if (host !== 'api1' && host !== 'api2') return;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (proc.child.exitCode !== null)
        throw new Error(`${host} exited with ${proc.child.exitCode}: ${proc.output.join('')}`);
      const answer = await this.call(host, 'GET', '/health', { timeoutMs: 2000 }).catch(() => null);
      if (answer?.status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${host} not ready: ${proc.output.join('')}`);
  }

  output(host: HostName): string {
    return this.processes.get(host)?.output.join('') ?? '';
  }

  /** SIGKILL (or another signal) to a host's service process; answers its exit. */
  async kill(host: HostName, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const proc = this.processes.get(host);
    if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
    proc.child.kill(signal);
    await proc.exited;
  }

  /**
   * One HTTP request from the client (root namespace) to an API host's front address. `Host`
   * names the deployment's public name, as a load balancer in front of both hosts keeps it.
   */
  call(
    host: 'api1' | 'api2',
    method: string,
    route: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<Answer> {
    const started = performance.now();
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    return new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        {
          host: HOSTS[host].front,
          port: API_PORT,
          method,
          path: route,
          agent: false,
          headers: {
            Host: 'dispensary.example',
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
            ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
            ...options.headers,
          },
          timeout: options.timeoutMs ?? 60_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            let body: unknown = text;
            try {
              body = JSON.parse(text);
            } catch {
              // not JSON
            }
            resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - started });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`no answer from ${host} within ${options.timeoutMs ?? 60_000} ms`)),
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** The CLI in the root namespace, on the run's database (directly, not through the data link). */
  cli(...argv: string[]): Promise<{ code: number | null; out: string; err: string }> {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'dist', 'app', 'bin', 'cli.js'), ...argv], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...this.serviceEnv(), DATABASE_URL: this.database.url, REDIS_URL: '', AMQP_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
  }

  /** An integration token made with the CLI, as an operator would. */
  async integrationToken(name: string): Promise<string> {
    const result = await this.cli('integration:token:create', '--name', name, '--all-stores');
    if (result.code !== 0) throw new Error(`token create failed: ${result.err}`);
    return result.out.trim().split('\n').pop()!;
  }

  async stop(): Promise<void> {
    for (const host of this.processes.keys()) await this.kill(host);
    if (this.redis && this.redis.child.exitCode === null) {
      this.redis.child.kill('SIGKILL');
      await this.redis.exited;
    }
    for (const forwarder of this.forwarders.values()) await forwarder.stop();
    removeNetwork();
    await this.database.release();
  }
}
