import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';

export interface MachineInfo {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
  readonly packages: Record<string, string>;
}

const require = createRequire(import.meta.url);

function version(pkg: string): string {
  try {
    return (require(`${pkg}/package.json`) as { version: string }).version;
  } catch {
    return '?';
  }
}

export function machineInfo(): MachineInfo {
  let cpuModel = os.cpus()[0]?.model ?? '?';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpuModel;
  } catch {
    // not Linux
  }
  return {
    cpus: os.availableParallelism(),
    cpuModel,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    packages: Object.fromEntries(
      ['better-sqlite3', 'knex', 'express', 'joi', 'inversify', 'autocannon'].map((p) => [p, version(p)]),
    ),
  };
}
