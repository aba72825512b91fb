/**
 * Micro-benchmark of the plugin chain, straight on app/framework/interception: a class with an
 * async method, 0 / 1 / 5 / 20 async plugins on it (before, around, after, or a mix), the
 * Interceptor subclass generated once by createInterceptorClass from buildLevels, then
 * nanoseconds per awaited call. The chain is composed once; a call only walks it.
 */
import { createInterceptorClass } from '../../app/framework/interception/Interceptor.js';
import { buildLevels, type PluginEntry, type PluginLevel } from '../../app/framework/interception/PluginList.js';

export type PluginKind = 'before' | 'around' | 'after' | 'mixed';
export const PLUGIN_KINDS: readonly PluginKind[] = ['before', 'around', 'after', 'mixed'];

export interface PluginPoint {
  readonly kind: PluginKind;
  readonly plugins: number;
  /** Median of the samples, ns per awaited call. */
  readonly nsPerCall: number;
  /** (ns(N) - ns(0)) / N. */
  readonly nsPerPlugin: number | null;
}

export interface PluginReport {
  readonly points: PluginPoint[];
  /** Largest ns per plugin over every kind and count. */
  readonly worstNsPerPlugin: number;
  /** The intercepted method was the same function object before and after the calls: the chain is never rebuilt per call. */
  readonly chainStable: boolean;
  /** What building one chain (buildLevels + createInterceptorClass) of 20 plugins costs, µs: what a per-call rebuild would add. */
  readonly buildMicros: number;
}

class Target {
  async run(a: number, b: number): Promise<number> {
    return a + b;
  }
}

/** A plugin class of one kind, with async methods on `run`. */
function pluginClass(kind: Exclude<PluginKind, 'mixed'>): PluginEntry['pluginClass'] {
  switch (kind) {
    case 'before':
      return class {
        async beforeRun(_subject: object, _a: number, _b: number): Promise<null> {
          return null;
        }
      };
    case 'around':
      return class {
        async aroundRun(
          _subject: object,
          proceed: (...args: unknown[]) => Promise<unknown>,
          a: number,
          b: number,
        ): Promise<unknown> {
          return proceed(a, b);
        }
      };
    case 'after':
      return class {
        async afterRun(_subject: object, result: number): Promise<number> {
          return result;
        }
      };
  }
}

function entries(kind: PluginKind, count: number): PluginEntry[] {
  const kinds = ['before', 'around', 'after'] as const;
  return Array.from({ length: count }, (_, i) => {
    const cls = pluginClass(kind === 'mixed' ? kinds[i % 3]! : kind);
    const instance = new (cls as new () => object)();
    return {
      name: `p${i}`,
      typeName: `Bench\\Plugin${i}`,
      sortOrder: i * 10,
      position: i,
      pluginClass: cls,
      instance: () => instance,
    };
  });
}

function build(kind: PluginKind, count: number): { subject: Target; levels: PluginLevel[] } {
  const levels = buildLevels(entries(kind, count), 'run');
  const Interceptor = count === 0 ? Target : createInterceptorClass(Target, new Map([['run', levels]]));
  return { subject: new Interceptor(), levels };
}

async function timeCalls(subject: Target, calls: number): Promise<number> {
  let sum = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sum += await subject.run(i, 1);
  const ns = Number(process.hrtime.bigint() - start);
  if (sum < 0) throw new Error('unreachable'); // keeps the loop's result alive
  return ns / calls;
}

/** Median of `samples` timings of about `sampleMs` each, after a warm-up. */
async function measure(subject: Target, sampleMs: number, samples: number): Promise<number> {
  await timeCalls(subject, 20_000);
  const probe = await timeCalls(subject, 20_000);
  const calls = Math.max(2_000, Math.round((sampleMs * 1e6) / probe));
  const results: number[] = [];
  for (let s = 0; s < samples; s++) results.push(await timeCalls(subject, calls));
  results.sort((a, b) => a - b);
  return results[Math.floor(results.length / 2)]!;
}

export async function pluginBenchmark(
  counts: readonly number[] = [0, 1, 5, 20],
  sampleMs = 100,
  samples = 5,
): Promise<PluginReport> {
  const points: PluginPoint[] = [];
  let chainStable = true;
  for (const kind of PLUGIN_KINDS) {
    let base = 0;
    for (const count of counts) {
      const { subject } = build(kind, count);
      const method = (subject as unknown as { run: unknown }).run;
      const nsPerCall = await measure(subject, sampleMs, samples);
      if ((subject as unknown as { run: unknown }).run !== method) chainStable = false;
      if (count === 0) base = nsPerCall;
      points.push({ kind, plugins: count, nsPerCall, nsPerPlugin: count === 0 ? null : (nsPerCall - base) / count });
    }
  }
  const buildStart = process.hrtime.bigint();
  const rounds = 200;
  for (let i = 0; i < rounds; i++) build('mixed', 20);
  const buildMicros = Number(process.hrtime.bigint() - buildStart) / rounds / 1000;
  const worstNsPerPlugin = Math.max(...points.map((p) => p.nsPerPlugin ?? 0));
  return { points, worstNsPerPlugin, chainStable, buildMicros };
}
