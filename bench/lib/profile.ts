/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went: self time per function,
 * and self and inclusive time per area (a package under node_modules, the framework, the modules,
 * node's internals, GC, idle).
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileShare {
  readonly name: string;
  readonly ms: number;
  readonly percent: number;
}

export interface ProfileSummary {
  readonly file: string;
  /** Sampled time, idle excluded, ms. */
  readonly busyMs: number;
  readonly idlePercent: number;
  readonly selfByArea: ProfileShare[];
  /** Share of busy samples with at least one frame of the area on the stack. */
  readonly inclusiveByArea: ProfileShare[];
  readonly topSelf: ProfileShare[];
  /** Share of busy samples with the named function on the stack (what a query build, a transaction, ... costs in all). */
  readonly inclusiveFunctions: ProfileShare[];
}

export function area(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(program)') return '(program: V8 / native)';
    return `native: ${functionName || '(anonymous)'}`;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node internals';
  if (/\/dist\/app\/framework\//.test(url)) return 'framework (app/framework)';
  if (/\/dist\/app\//.test(url)) return 'app bootstrap';
  if (/\/dist\/modules\//.test(url)) return 'modules';
  if (/\/dist\/bench\//.test(url)) return 'bench';
  return url;
}

function label(frame: CallFrame): string {
  const file = frame.url.replace(/^.*\/(node_modules\/|dist\/)/, '$1');
  return `${frame.functionName || '(anonymous)'} ${file ? `${file}:${frame.lineNumber + 1}` : ''}`.trim();
}

function shares(map: Map<string, number>, total: number, top: number): ProfileShare[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, ms: us / 1000, percent: (100 * us) / total }));
}

/** `watch`: function names whose inclusive share is reported (e.g. `toSQL`, `transaction`). */
export function summariseProfile(file: string, watch: readonly string[] = [], top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const selfArea = new Map<string, number>();
  const selfFn = new Map<string, number>();
  const inclArea = new Map<string, number>();
  const inclFn = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  // Start-up (module loading, migrations check) is not what we measure: count from the first
  // HTTP request on (the readiness probe comes right after start-up).
  let serving = false;
  for (let i = 0; i < profile.samples.length; i++) {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(profile.samples[i]!);
    if (!node) continue;
    if (!serving) {
      for (let id: number | undefined = node.id; id !== undefined && !serving; id = parent.get(id)) {
        const frame = byId.get(id)!.callFrame;
        serving = frame.functionName === 'parserOnIncoming' || frame.functionName === 'parserOnHeadersComplete';
      }
      if (!serving) continue;
    }
    const a = area(node.callFrame);
    if (a === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    selfArea.set(a, (selfArea.get(a) ?? 0) + us);
    const l = label(node.callFrame);
    selfFn.set(l, (selfFn.get(l) ?? 0) + us);
    const seenAreas = new Set<string>();
    const seenFns = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      if (frame.functionName === '(root)') continue;
      seenAreas.add(area(frame));
      if (watch.includes(frame.functionName)) seenFns.add(frame.functionName);
    }
    for (const s of seenAreas) inclArea.set(s, (inclArea.get(s) ?? 0) + us);
    for (const s of seenFns) inclFn.set(s, (inclFn.get(s) ?? 0) + us);
  }
  const total = busy || 1;
  return {
    file,
    busyMs: busy / 1000,
    idlePercent: (100 * idle) / (busy + idle || 1),
    selfByArea: shares(selfArea, total, top),
    inclusiveByArea: shares(inclArea, total, top),
    topSelf: shares(selfFn, total, top),
    inclusiveFunctions: shares(inclFn, total, watch.length),
  };
}
