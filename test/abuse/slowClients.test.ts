/**
 * Large and slow requests on the real HTTP server (loopback): a declared body over the limit is
 * refused before it is read, a body trickled in is cut after BODY_TIMEOUT_MS, headers that never
 * end after HEADERS_TIMEOUT_MS; each with a Magento-style JSON body where the socket allows it.
 */
import { expect } from 'chai';
import type { Dispensary } from '../modules/Recommendation/support.js';
import { listen, RawClient, startAbuseApp } from './support.js';

describe('Abuse: large bodies and slow clients', () => {
  let d: Dispensary;
  let server: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    ({ d } = await startAbuseApp({ bodyTimeoutMs: 400, headersTimeoutMs: 500, requestTimeoutMs: 60_000 }));
    server = await listen(d);
  });
  after(async () => {
    await server?.close();
    await d?.stop();
  });

  const head = (contentLength: number) =>
    `POST /rest/V1/integration/admin/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;

  it('should answer 413 to a 512 MiB Content-Length after a few bytes, and close the connection', async () => {
    const client = new RawClient(server.port);
    try {
      client.write(head(512 * 1024 * 1024) + '{"username":');
      // The old code read the whole declared body first: no answer would come while the client waits.
      expect(await client.waitForResponse(5_000), client.response).to.equal(true);
      expect(client.status()).to.equal(413);
      expect(client.body()).to.deep.equal({
        message: 'The request body is larger than the limit of %limit bytes.',
        parameters: { limit: 1048576 },
      });
      expect(client.response).to.match(/\r\nConnection: close\r\n/i);
      await client.closed;
    } finally {
      client.destroy();
    }
  });

  it('should close the connection after refusing a caller whose huge body it never read', async () => {
    const client = new RawClient(server.port);
    try {
      client.write(
        `POST /rest/all/V1/products HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${512 * 1024 * 1024}\r\n\r\n{`,
      );
      expect(await client.waitForResponse(5_000)).to.equal(true);
      expect(client.status()).to.equal(401);
      const closed = await Promise.race([
        client.closed.then(() => true),
        new Promise((resolve) => setTimeout(() => resolve(false), 5_000)),
      ]);
      expect(closed, 'the server kept the connection open to read 512 MiB').to.equal(true);
    } finally {
      client.destroy();
    }
  });

  it('should answer 413 to a chunked body as soon as it passes the limit, before it ends', async () => {
    const client = new RawClient(server.port);
    try {
      client.write(
        'POST /rest/V1/integration/admin/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      );
      const chunk = `{"username":"${'x'.repeat(64 * 1024)}`;
      // 20 chunks of 64 KiB pass the 1 MiB limit; the terminating chunk is never sent.
      for (let i = 0; i < 20; i++) client.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
      expect(await client.waitForResponse(5_000), client.response.slice(0, 200)).to.equal(true);
      expect(client.status()).to.equal(413);
      expect(client.body()).to.deep.equal({
        message: 'The request body is larger than the limit of %limit bytes.',
        parameters: { limit: 1048576 },
      });
    } finally {
      client.destroy();
    }
  });

  it('should answer 408 to a body trickled in slower than BODY_TIMEOUT_MS, before the client has sent it all', async () => {
    const client = new RawClient(server.port);
    try {
      const body = JSON.stringify({ username: 'someone', password: 'x'.repeat(20) });
      client.write(head(Buffer.byteLength(body)));
      let sent = 0;
      // One byte every 100 ms: the whole body would take ~5 s; the server gives it 400 ms.
      while (sent < body.length - 1 && !(await client.waitForResponse(100))) client.write(body[sent++]!);
      expect(client.status(), client.response).to.equal(408);
      expect(sent).to.be.lessThan(body.length - 1);
      expect(client.body()).to.deep.equal({
        message: 'The request body did not arrive within %timeout milliseconds.',
        parameters: { timeout: 400 },
      });
      await client.closed;
    } finally {
      client.destroy();
    }
  });

  it('should answer 408 with a JSON body to headers that never end', async () => {
    const client = new RawClient(server.port);
    try {
      client.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      for (let i = 0; i < 60 && !(await client.waitForResponse(100)); i++) client.write(`X-Slow-${i}: 1\r\n`);
      expect(client.status(), client.response).to.equal(408);
      expect(client.body()).to.deep.equal({ message: 'The request did not arrive in time.' });
    } finally {
      client.destroy();
    }
  });

  it('should still serve a normal request on the same server', async () => {
    const client = new RawClient(server.port);
    try {
      client.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect(await client.waitForResponse(5_000)).to.equal(true);
      expect(client.status()).to.equal(200);
    } finally {
      client.destroy();
    }
  });
});
