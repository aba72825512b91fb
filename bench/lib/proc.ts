/**
 * The three servers as child processes on loopback, and their memory read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PROJECT_ROOT } from '../../app/bootstrap/paths.js';

/** `baseline`: the service built from another git revision (--baseline <ref>), for before/after figures. */
export type ServerKind = 'service' | 'baseline' | 'express' | 'raw';
/** The three servers of every run, in the order runs interleave. */
export const SERVER_KINDS: readonly ServerKind[] = ['service', 'express', 'raw'];
export const ALL_SERVER_KINDS: readonly ServerKind[] = ['service', 'baseline', 'express', 'raw'];
export const SERVER_TITLES: Record<ServerKind, string> = {
  service: 'service (this framework)',
  baseline: 'service at the baseline revision',
  express: 'Express + knex',
  raw: 'raw node:http + better-sqlite3',
};

/** Where each server's entry point lives under a project root (the baseline has a root of its own). */
const ENTRY: Record<ServerKind, string[]> = {
  service: ['dist', 'app', 'bin', 'server.js'],
  baseline: ['dist', 'app', 'bin', 'server.js'],
  express: ['dist', 'bench', 'servers', 'express.js'],
  raw: ['dist', 'bench', 'servers', 'raw.js'],
};

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
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

/** Samples a process's RSS every `everyMs` while a run lasts; answers the largest reading. */
export class RssSampler {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number, everyMs = 100) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  private sample(): void {
    const reading = readMemory(this.pid);
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
    const port = await freePort();
    const root = options.root ?? PROJECT_ROOT;
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), path.join(root, ...ENTRY[kind])], {
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
    });
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

  private async ready(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`${this.kind} server exited with ${this.child.exitCode}: ${this.log()}`);
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
