/**
 * The abuse suite's application: the real app (Dispensary helpers) with its log lines captured,
 * and, for tests that need a raw socket, the real HTTP server (createHttpServer) on a loopback
 * port of its own.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import net from 'node:net';
import pino from 'pino';
import type { ApplicationOptions } from '../../app/bootstrap/Application.js';
import { createHttpServer } from '../../app/bootstrap/http/HttpServer.js';
import { Dispensary } from '../modules/Recommendation/support.js';

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export async function startAbuseApp(options: ApplicationOptions = {}): Promise<{ d: Dispensary; logs: LogLine[] }> {
  const logs: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) });
  const d = await Dispensary.start({ ...options, logger });
  return { d, logs };
}

/** Error-level lines (pino level 50 and up): a stack logged for a client's mistake shows up here. */
export const errorsLogged = (logs: LogLine[]) => logs.filter((l) => l.level >= 50);

export async function listen(d: Dispensary): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createHttpServer(d.t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A raw HTTP exchange: what the server sent back, read until it closes the socket or `untilMs` passes. */
export class RawClient {
  readonly socket: net.Socket;
  private received = '';
  readonly closed: Promise<void>;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('latin1')));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()));
  }

  get response(): string {
    return this.received;
  }

  write(text: string): boolean {
    return !this.socket.destroyed && this.socket.write(text);
  }

  /** Resolves true when a complete answer (head and the body its Content-Length names) has arrived. */
  async waitForResponse(untilMs: number): Promise<boolean> {
    const deadline = Date.now() + untilMs;
    while (Date.now() < deadline) {
      if (completeResponse(this.received)) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return completeResponse(this.received);
  }

  status(): number {
    return Number(/^HTTP\/1\.1 (\d{3})/.exec(this.received)?.[1] ?? 0);
  }

  body(): unknown {
    const at = this.received.indexOf('\r\n\r\n');
    return JSON.parse(Buffer.from(this.received.slice(at + 4), 'latin1').toString('utf8'));
  }

  destroy(): void {
    this.socket.destroy();
  }
}

function completeResponse(text: string): boolean {
  const at = text.indexOf('\r\n\r\n');
  if (at < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, at))?.[1];
  return length !== undefined && Buffer.byteLength(text.slice(at + 4), 'latin1') >= Number(length);
}
