/**
 * The cluster's network, made of Linux network namespaces, veth pairs and two bridges, all named
 * with the prefix `dc-` so a later run can find and remove what a killed run left behind:
 *
 *   client (root namespace, 198.18.0.1) --- dc-front bridge --- api1 198.18.0.11, api2 198.18.0.12
 *   data host (root namespace, 198.18.1.1) --- dc-data bridge --- api1 .11, api2 .12, worker .13, cache .14
 *
 * Addresses come from 198.18.0.0/15 only (reserved for network benchmarks, RFC 2544). The root
 * namespace plays the client and the `data` host: the machine's own PostgreSQL, MariaDB and
 * RabbitMQ listen on 127.0.0.1 only and are shared with other test runs, so they are not
 * reconfigured; forwarders bound to 198.18.1.1 carry each host's connections to them (see
 * forwarder.ts). Redis runs as an instance of the harness's own in the `cache` namespace, so a
 * test can drop Redis's packets without touching the database's. A blackhole is a bridge port set
 * to `state disabled`: every packet of that host's link is dropped, both ways, with no reset.
 */
import { execFileSync } from 'node:child_process';

export const PREFIX = 'dc-';
export const FRONT_BRIDGE = `${PREFIX}front`;
export const DATA_BRIDGE = `${PREFIX}data`;
export const CLIENT_ADDRESS = '198.18.0.1';
export const DATA_ADDRESS = '198.18.1.1';

export interface HostSpec {
  readonly name: string;
  /** Address on the front bridge (clients), if the host has one. */
  readonly front?: string;
  /** Address on the data bridge. */
  readonly data: string;
}

export const HOSTS = {
  api1: { name: 'api1', front: '198.18.0.11', data: '198.18.1.11' },
  api2: { name: 'api2', front: '198.18.0.12', data: '198.18.1.12' },
  worker: { name: 'worker', data: '198.18.1.13' },
  cache: { name: 'cache', data: '198.18.1.14' },
} as const satisfies Record<string, HostSpec>;

export type HostName = keyof typeof HOSTS;
export type Link = 'front' | 'data';

export const namespaceOf = (host: HostName) => `${PREFIX}${host}`;
/** The root end of a host's veth on a bridge (at most 15 characters). */
export const portOf = (host: HostName, link: Link) => `${PREFIX}${host}-${link[0]}`;

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Removes every namespace and link named with the prefix; ends the processes left in those namespaces. */
export function removeNetwork(): void {
  for (const line of ip('netns', 'list').split('\n')) {
    const ns = line.split(' ')[0];
    if (!ns?.startsWith(PREFIX)) continue;
    // Processes a killed run left in its own namespaces (servers, the cache's redis-server).
    for (const pid of ip('netns', 'pids', ns).split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    ip('netns', 'del', ns);
  }
  const links = JSON.parse(ip('-j', 'link', 'show')) as { ifname: string }[];
  for (const { ifname } of links) {
    if (!ifname.startsWith(PREFIX)) continue;
    try {
      ip('link', 'del', ifname);
    } catch {
      // a veth goes with its peer's namespace, a moment after `netns del`
    }
  }
}

/** Creates both bridges, the root namespace's addresses on them, and a namespace per host. */
export function createNetwork(): void {
  removeNetwork();
  for (const [bridge, address] of [
    [FRONT_BRIDGE, `${CLIENT_ADDRESS}/24`],
    [DATA_BRIDGE, `${DATA_ADDRESS}/24`],
  ] as const) {
    ip('link', 'add', bridge, 'type', 'bridge', 'stp_state', '0', 'forward_delay', '0');
    ip('addr', 'add', address, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
  }
  for (const host of Object.keys(HOSTS) as HostName[]) {
    const spec: HostSpec = HOSTS[host];
    const ns = namespaceOf(host);
    ip('netns', 'add', ns);
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    const links: [Link, string, string][] = [['data', DATA_BRIDGE, spec.data]];
    if (spec.front) links.push(['front', FRONT_BRIDGE, spec.front]);
    for (const [link, bridge, address] of links) {
      const port = portOf(host, link);
      ip('link', 'add', port, 'type', 'veth', 'peer', 'name', link, 'netns', ns);
      ip('link', 'set', port, 'master', bridge);
      ip('link', 'set', port, 'up');
      ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', link);
      ip('-n', ns, 'link', 'set', link, 'up');
    }
  }
}

/** Drops every packet of the host's link, both ways, without a reset. */
export function blackhole(host: HostName, link: Link): void {
  execFileSync('bridge', ['link', 'set', 'dev', portOf(host, link), 'state', 'disabled']);
}

export function restore(host: HostName, link: Link): void {
  execFileSync('bridge', ['link', 'set', 'dev', portOf(host, link), 'state', 'forwarding']);
}
