/**
 * Real server processes (`node dist/app/bin/server.js`), as an operator runs them, for tests of
 * start-up races, several processes on one database, and graceful shutdown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { writeModuleConfig, type ModuleSelection } from './modules.js';

// One free-port helper for the tests and the benchmark.
export { freePort } from '../../bench/lib/proc.js';

export class ServerProcess {
  readonly output: string[] = [];
  private exited?: Promise<number | null>;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
  }

  /**
   * `modules`: other modules than the project's (test/support/modules.ts), through MODULE_CONFIG_FILE;
   * `root`: another copy of the project to run (a clone the test made).
   */
  static spawn(
    databaseUrl: string,
    port: number,
    env: Record<string, string> = {},
    modules?: ModuleSelection,
    root = PROJECT_ROOT,
  ): ServerProcess {
    if (modules) env = { ...env, MODULE_CONFIG_FILE: writeModuleConfig(modules) };
    const child = spawn(process.execPath, [path.join(root, 'dist', 'app', 'bin', 'server.js')], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ServerProcess(child, port);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Waits until /health answers 200 (or the process dies). */
  async ready(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null)
        throw new Error(`server exited with ${this.child.exitCode}: ${this.output.join('')}`);
      try {
        const res = await fetch(`${this.url}/health`);
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`server on port ${this.port} not ready: ${this.output.join('')}`);
  }

  /** Sends the signal and answers the exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill(signal);
    return this.exited!;
  }

  exitCode(): Promise<number | null> {
    return this.exited!;
  }
}
