/**
 * A small TCP proxy between the service and its database, so a test can cut the database away
 * (connections reset, new ones refused) and bring it back on the same port, or blackhole it
 * (nothing passes, nothing is closed: bytes wait, as on a link that drops packets, and flow
 * again on restore, as TCP retransmits them).
 */
import net from 'node:net';

export class TcpProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private blackholed = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      if (this.blackholed) for (const socket of [client, upstream]) socket.pause();
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** Resets every open connection and refuses new ones until restore(). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
    await closed;
  }

  /** Stops every byte both ways, closing nothing; new connections are accepted and hang. */
  blackhole(): void {
    this.blackholed = true;
    for (const socket of this.sockets) socket.pause();
  }

  /** Undoes cut() or blackhole(). */
  async restore(): Promise<void> {
    if (this.blackholed) {
      this.blackholed = false;
      for (const socket of this.sockets) socket.resume();
      return;
    }
    if (!this.server) await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}
