/**
 * Before any load: the same requests to the three servers, each on the same database state,
 * and their answers compared (status and body; fresh item ids and updated_at normalised). This
 * is what makes "the same request and response" a checked fact rather than a claim.
 */
import { isDeepStrictEqual } from 'node:util';
import { addRequest, getRequest, updateRequest, type BenchRequest, type DataShape, type SeededIds } from './data.js';
import type { ServerKind, ServerProcess } from './proc.js';

export interface Probe {
  readonly name: string;
  readonly request: BenchRequest;
  readonly token?: string;
  /** Writes: reset the database before sending it to each server. */
  readonly writes: boolean;
}

export interface ProbeResult {
  readonly name: string;
  readonly status: Partial<Record<ServerKind, number>>;
  readonly same: boolean;
  /** When not the same: each server's normalised body. */
  readonly bodies?: Partial<Record<ServerKind, unknown>>;
}

export function probes(ids: SeededIds, shape: DataShape): Probe[] {
  const add = addRequest(ids, shape, 0);
  const path = add.path;
  return [
    { name: 'Add Items: 2 new items', request: add, writes: true },
    // More than 500 rows in one insert once failed on SQLite (a compound SELECT of more than 500 terms).
    { name: 'Add Items: 600 new items', request: addRequest(ids, shape, 1, 600), writes: true },
    { name: 'Update Items: 2 items', request: updateRequest(ids, shape, 0), writes: true },
    { name: 'GET recommendation', request: getRequest(ids, 0), writes: false },
    {
      name: 'Add Items: unknown sku (400)',
      request: {
        method: 'POST',
        path,
        body: JSON.stringify({ recommendation: { items: [{ sku: 'no-such-sku', qty: 1 }] } }),
      },
      writes: true,
    },
    {
      name: 'Add Items: two invalid items (400, aggregated)',
      request: {
        method: 'POST',
        path,
        body: JSON.stringify({ recommendation: { items: [{ sku: 'bench-01000', qty: 0 }, { qty: 1 }] } }),
      },
      writes: true,
    },
    {
      name: 'GET unknown recommendation (404)',
      request: { method: 'GET', path: path.replace(/[0-9a-f-]{36}\/item$/, '00000000-0000-4000-8000-000000000000') },
      writes: false,
    },
    { name: 'wrong token (401)', request: getRequest(ids, 1), token: 'a'.repeat(32), writes: false },
  ];
}

/**
 * After a write, updated_at and the ids of new items differ between servers by nature: those are
 * normalised (all item ids of a write's answer; reads compare the ids too).
 */
function normalise(body: unknown, write: boolean): unknown {
  if (body === null || typeof body !== 'object') return body;
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  if (write && 'updated_at' in copy) copy.updated_at = '<updated_at>';
  if (write && Array.isArray(copy.items))
    for (const item of copy.items as Record<string, unknown>[]) item.item_id = '<item id>';
  return copy;
}

export async function runProbes(
  servers: readonly ServerProcess[],
  token: string,
  list: readonly Probe[],
  reset: () => Promise<unknown>,
): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];
  for (const probe of list) {
    const status: Partial<Record<ServerKind, number>> = {};
    const bodies: Partial<Record<ServerKind, unknown>> = {};
    for (const server of servers) {
      if (probe.writes) await reset();
      const res = await fetch(`${server.url}${probe.request.path}`, {
        method: probe.request.method,
        headers: { authorization: `Bearer ${probe.token ?? token}`, 'content-type': 'application/json' },
        body: probe.request.body,
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      status[server.kind] = res.status;
      bodies[server.kind] = body;
    }
    const normalised = servers.map((s) => normalise(bodies[s.kind], probe.writes));
    const same =
      normalised.every((b) => isDeepStrictEqual(b, normalised[0])) &&
      servers.every((s) => status[s.kind] === status[servers[0]!.kind]);
    results.push({
      name: probe.name,
      status,
      same,
      ...(same ? {} : { bodies: Object.fromEntries(servers.map((s, i) => [s.kind, normalised[i]])) }),
    });
  }
  await reset();
  return results;
}
