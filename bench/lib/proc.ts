/**
 * The three servers as child processes on loopback, and their memory read from /proc. A server
 * may run as several processes of the same entry point on ports of their own, all on the one
 * database (ServerGroup; --processes N), as an operator runs it behind a load balancer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';

/** `baseline`: the service built from another git revision (--baseline <ref>), for before/after figures. */
export type ServerKind = 'service' | 'baseline' | 'express' | 'raw';
/** The three servers of every run, in the order runs interleave. */
export const SERVER_KINDS: readonly ServerKind[] = ['service', 'express', 'raw'];
export const ALL_SERVER_KINDS: readonly ServerKind[] = ['service', 'baseline', 'express', 'raw'];
export const SERVER_TITLES: Record<ServerKind, string> = {
  service: 'service (this framework)',
  baseline: 'service at the baseline revision',
  express: 'Express + knex',
  raw: 'raw node:http + better-sqlite3 / pg',
};

/** Where each server's entry point lives under a project root (the baseline has a root of its own). */
const ENTRY: Record<ServerKind, string[]> = {
  service: ['dist', 'app', 'bin', 'server.js'],
  baseline: ['dist', 'app', 'bin', 'server.js'],
  express: ['dist', 'bench', 'servers', 'express.js'],
  raw: ['dist', 'bench', 'servers', 'raw.js'],
};

/** The raw reference of the database's dialect: raw.ts on SQLite, rawPostgres.ts on PostgreSQL. */
function entry(kind: ServerKind, databaseUrl: string): string[] {
  if (kind === 'raw' && /^postgres(ql)?:\/\//.test(databaseUrl)) return ['dist', 'bench', 'servers', 'rawPostgres.js'];
  return ENTRY[kind];
}

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/** `count` distinct free ports (all held open at once while the OS picks them). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => net.createServer());
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  return ports;
}

export interface MemoryReading {
  /** Resident set size now, MiB. */
  readonly rssMiB: number;
  /** Peak resident set size since the process started (VmHWM), MiB. */
  readonly hwmMiB: number;
}

/** VmRSS and VmHWM of a process from /proc/<pid>/status (Linux); null when unreadable. */
export function readMemory(pid: number): MemoryReading | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const rss = kib('VmRSS');
    const hwm = kib('VmHWM');
    if (Number.isNaN(rss)) return null;
    return { rssMiB: rss / 1024, hwmMiB: hwm / 1024 };
  } catch {
    return null;
  }
}

/**
 * CPU time a process has used (user + system), ms, from /proc/<pid>/stat (clock ticks of 10 ms
 * on Linux). Per request it is steadier than throughput on a shared machine: other processes
 * take wall time from a server, not CPU time.
 */
export function readCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), which ends with ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

const CLOCK_TICKS = 100;

/** The readings of several processes added up (null when any is unreadable). */
export function sumMemory(readings: readonly (MemoryReading | null)[]): MemoryReading | null {
  if (readings.length === 0 || readings.some((r) => r === null)) return null;
  return { rssMiB: readings.reduce((a, r) => a + r!.rssMiB, 0), hwmMiB: readings.reduce((a, r) => a + r!.hwmMiB, 0) };
}

/**
 * Samples a process's RSS (or the sum over several processes' at the same moment) every
 * `everyMs` while a run lasts; answers the largest reading.
 */
export class RssSampler {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly pids: readonly number[];

  constructor(pid: number | readonly number[], everyMs = 100) {
    this.pids = typeof pid === 'number' ? [pid] : pid;
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  private sample(): void {
    const reading = sumMemory(this.pids.map(readMemory));
    if (reading && reading.rssMiB > this.peak) this.peak = reading.rssMiB;
  }

  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }
}

export interface ServerOptions {
  readonly databaseUrl: string;
  /** Extra node flags, e.g. --cpu-prof. */
  readonly nodeArgs?: readonly string[];
  readonly env?: Record<string, string>;
  /** Project root to run from (the baseline's checkout); this project by default. */
  readonly root?: string;
  /** The port to listen on; a free one by default. */
  readonly port?: number;
}

export class ServerProcess {
  private readonly output: string[] = [];
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly kind: ServerKind,
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 200) this.output.shift();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  static async start(kind: ServerKind, options: ServerOptions): Promise<ServerProcess> {
    const port = options.port ?? (await freePort());
    const root = options.root ?? PROJECT_ROOT;
    const child = spawn(
      process.execPath,
      [...(options.nodeArgs ?? []), path.join(root, ...entry(kind, options.databaseUrl))],
      {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: options.databaseUrl,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          ...options.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const server = new ServerProcess(kind, child, port);
    try {
      await server.ready();
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  log(): string {
    return this.output.join('');
  }

  // 120 s: on a machine shared with other work (load average 20) the service took over 30 s to
  // start on the seeded database; the bound only stops a run that would never start.
  private async ready(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null)
        throw new Error(`${this.kind} server exited with ${this.child.exitCode}: ${this.log()}`);
      try {
        const res = await fetch(`${this.url}/health`);
        await res.arrayBuffer();
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${this.kind} server on port ${this.port} not ready after ${timeoutMs} ms: ${this.log()}`);
  }

  memory(): MemoryReading | null {
    return readMemory(this.pid);
  }

  /** SIGTERM, then SIGKILL after `graceMs`; answers the exit code. */
  async stop(graceMs = 5_000): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
      const code = await this.exited;
      clearTimeout(timer);
      return code;
    }
    return this.exited;
  }
}

/**
 * One server as `count` processes of the same entry point on ports of their own, all on the one
 * database, as an operator runs it behind a load balancer; one process is the plain case.
 * CPU time and memory are those of all the processes together.
 */
export class ServerGroup {
  private constructor(
    readonly kind: ServerKind,
    readonly processes: readonly ServerProcess[],
  ) {}

  /** Starts the processes side by side; if one fails, stops the others and throws. */
  static async start(kind: ServerKind, count: number, options: ServerOptions): Promise<ServerGroup> {
    if (!Number.isInteger(count) || count < 1) throw new Error(`a server needs at least one process, got ${count}`);
    const ports = options.port === undefined ? await freePorts(count) : [options.port];
    const launched = await Promise.allSettled(ports.map((port) => ServerProcess.start(kind, { ...options, port })));
    const started = launched.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const failed = launched.find((o) => o.status === 'rejected');
    if (failed) {
      await Promise.all(started.map((s) => s.stop()));
      throw failed.reason;
    }
    return new ServerGroup(kind, started);
  }

  /** The first process: where probes go, and the one of a single-process server. */
  get first(): ServerProcess {
    return this.processes[0]!;
  }

  get urls(): string[] {
    return this.processes.map((p) => p.url);
  }

  get pids(): number[] {
    return this.processes.map((p) => p.pid);
  }

  /** CPU time (user + system) of each process, ms. */
  cpuMsEach(): number[] {
    return this.processes.map((p) => readCpuMs(p.pid));
  }

  /** RSS and VmHWM summed over the processes. */
  memory(): MemoryReading | null {
    return sumMemory(this.processes.map((p) => p.memory()));
  }

  /** A process that has exited, if any. */
  dead(): ServerProcess | undefined {
    return this.processes.find((p) => p.child.exitCode !== null || p.child.signalCode !== null);
  }

  async stop(graceMs?: number): Promise<void> {
    await Promise.all(this.processes.map((p) => p.stop(graceMs)));
  }
}
