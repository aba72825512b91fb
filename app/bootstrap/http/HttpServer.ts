/**
 * The HTTP server around the Express app, with the slow-client limits set: headers must arrive
 * within HEADERS_TIMEOUT_MS and the whole request within REQUEST_TIMEOUT_MS (node's own
 * timers); the front controller bounds the body read itself (BODY_TIMEOUT_MS). A client error
 * node detects before any handler runs (a timeout, malformed or oversized headers) still answers
 * a Magento-style JSON body when the socket can take one.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import type { DeploymentConfig } from '../config/DeploymentConfig.js';

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request did not arrive in time.'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large.'],
};

/** What the server is built from; an Application has both. */
export interface HttpServerSource {
  http(): Express;
  readonly config: Pick<DeploymentConfig, 'headersTimeoutMs' | 'requestTimeoutMs'>;
}

export function createHttpServer(app: HttpServerSource): http.Server {
  const { headersTimeoutMs, requestTimeoutMs } = app.config;
  const express = app.http();
  const server = http.createServer(
    {
      ...withExpressPrototypes(express),
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // How often node looks for expired requests: often enough for the smallest timeout to hold.
      connectionsCheckingInterval: Math.max(
        100,
        Math.min(1000, Math.floor(Math.min(headersTimeoutMs, requestTimeoutMs) / 4)),
      ),
    },
    express,
  );
  server.keepAliveTimeout = 5_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket));
  return server;
}

/**
 * Performance (issue 12): Express gives every request and response its own prototypes
 * (`Object.setPrototypeOf(req, app.request)`), and V8 makes an object whose prototype changes a
 * slow one: every later property access on it pays, in Express, node's http code and ours. The
 * server makes its request and response objects with those prototypes from the start, so
 * Express's swap finds them in place and changes nothing (BENCHMARKS.md has the figures).
 */
function withExpressPrototypes(express: { request: object; response: object }): {
  IncomingMessage: typeof http.IncomingMessage;
  ServerResponse: typeof http.ServerResponse;
} {
  function ExpressIncomingMessage(this: http.IncomingMessage, socket: Socket): void {
    http.IncomingMessage.call(this, socket);
  }
  ExpressIncomingMessage.prototype = express.request;
  function ExpressServerResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: object): void {
    (
      http.ServerResponse as unknown as (this: http.ServerResponse, req: http.IncomingMessage, options?: object) => void
    ).call(this, req, options);
  }
  ExpressServerResponse.prototype = express.response;
  return {
    IncomingMessage: ExpressIncomingMessage as unknown as typeof http.IncomingMessage,
    ServerResponse: ExpressServerResponse as unknown as typeof http.ServerResponse,
  };
}

function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const response = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !response?.headersSent && error.code !== 'ECONNRESET') {
    const [status, reason, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
      400,
      'Bad Request',
      'The request could not be read.',
    ];
    const body = JSON.stringify({ message });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroySoon();
}
