/**
 * A real HTTP receiver for webhook and event tests (node:http on 127.0.0.1): it verifies each
 * request's Standard Webhooks signature with the `standardwebhooks` package, records what it
 * received, and answers what the test tells it to (a JSON answer, a status, garbage, or never).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: unknown;
  /** Whether the signature verified with the subscription's secret. */
  readonly verified: boolean;
}

export type Answer = {
  status?: number;
  json?: unknown;
  raw?: string;
  delayMs?: number;
  hang?: boolean;
  headers?: Record<string, string>;
};

export class WebhookReceiver {
  readonly received: Received[] = [];
  /** What the next requests are answered (by default: `{"op": "success"}`). */
  answer: (request: Received) => Answer | Promise<Answer> = () => ({ json: { op: 'success' } });
  secret?: string;
  private readonly server: http.Server;
  private readonly sockets = new Set<import('node:net').Socket>();

  private constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let verified = false;
        if (this.secret) {
          try {
            new Webhook(this.secret).verify(raw, req.headers as Record<string, string>);
            verified = true;
          } catch {
            verified = false;
          }
        }
        let body: unknown = raw;
        try {
          body = JSON.parse(raw);
        } catch {
          /* kept raw */
        }
        const received: Received = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body,
          verified,
        };
        this.received.push(received);
        void Promise.resolve(this.answer(received)).then((answer) => {
          if (answer.hang) return; // never answers: the caller's timeout must end it
          const reply = () => {
            const text = answer.raw ?? JSON.stringify(answer.json ?? { op: 'success' });
            res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
            res.end(text);
          };
          if (answer.delayMs) setTimeout(reply, answer.delayMs);
          else reply();
        });
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(port = 0): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve, reject) => {
      receiver.server.once('error', reject);
      receiver.server.listen(port, '127.0.0.1', () => resolve());
    });
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
