/**
 * A TCP forwarder on the data host: listens on the data bridge's address and carries each
 * connection to a server of the machine that listens on 127.0.0.1 only. The server sees a local
 * client (its own access rules unchanged); a host whose bridge port is disabled still loses every
 * packet on its way here, with no reset. `delayMs` holds each chunk from the server that long
 * before passing it on (order kept): the added round-trip latency, since this kernel has no
 * netem qdisc. `pause(address)` stops every byte of one client's connections both ways, closing
 * nothing (new ones hang too) until `resume(address)`: a silent link for that client and that
 * service only, where a disabled bridge port would silence all of a host's services at once.
 */
import net from 'node:net';

export class Forwarder {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly paused = new Set<string>();
  private readonly pairs = new Map<string, Set<[net.Socket, net.Socket]>>();
  delayMs = 0;

  constructor(
    private readonly listenHost: string,
    readonly port: number,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.setNoDelay(true);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      const from = client.remoteAddress?.replace(/^::ffff:/, '') ?? '';
      const pair: [net.Socket, net.Socket] = [client, upstream];
      if (!this.pairs.has(from)) this.pairs.set(from, new Set());
      this.pairs.get(from)!.add(pair);
      client.on('close', () => this.pairs.get(from)?.delete(pair));
      if (this.paused.has(from)) for (const socket of pair) socket.pause();
      client.pipe(upstream);
      // Server -> client: delayed when asked, in order.
      let last = 0;
      upstream.on('data', (chunk: Buffer) => {
        if (this.delayMs <= 0) return void client.write(chunk);
        const due = Math.max(Date.now() + this.delayMs, last);
        last = due;
        setTimeout(() => client.writable && client.write(chunk), due - Date.now());
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.port, this.listenHost, () => resolve());
    });
  }

  pause(address: string): void {
    this.paused.add(address);
    for (const pair of this.pairs.get(address) ?? []) for (const socket of pair) socket.pause();
  }

  resume(address: string): void {
    this.paused.delete(address);
    for (const pair of this.pairs.get(address) ?? []) for (const socket of pair) socket.resume();
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
