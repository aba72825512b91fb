import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { JsonBodyReader } from '../../../app/framework/webapi/JsonBodyReader.js';
import { LocalizedException } from '../../../app/framework/exception/LocalizedException.js';
import { httpStatusOf } from '../../../app/framework/webapi/ErrorProcessor.js';

/** A real server whose only handler reads the body and answers what the reader said. */
describe('JsonBodyReader: the request body as JSON, on the direct path and through body-parser alike', () => {
  // The timeout is wide enough for a loaded machine to read a whole body in time (body-parser loads
  // iconv-lite's tables on the first charset, which took over 300 ms at load 30), short enough to test.
  const reader = new JsonBodyReader({ bodyLimit: 1000, maxJsonDepth: 4, bodyTimeoutMs: 1500 });
  let server: http.Server;
  let port: number;
  before(async () => {
    server = http.createServer((req, res) => {
      (req as typeof req & { res: typeof res }).res = res;
      reader.read(req, req.url === '/array').then(
        (body) => res.end(JSON.stringify({ ok: true, body: body ?? null })),
        (error: unknown) => {
          const status = error instanceof LocalizedException ? httpStatusOf(error) : 500;
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ok: false, status, message: (error as Error).message }));
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  after(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  interface Answer {
    ok: boolean;
    status?: number;
    message?: string;
    body?: unknown;
  }
  const send = (body: Buffer | string, headers: Record<string, string> = {}, path = '/'): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path, headers: { 'content-type': 'application/json', ...headers } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(JSON.parse(text) as Answer));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it('should parse a plain UTF-8 body the same with or without charset=utf-8, and with a BOM', async () => {
    const json = '{"recommendation":{"items":[{"sku":"é-1","qty":2}]}}';
    const expected = { ok: true, body: JSON.parse(json) };
    expect(await send(json)).to.deep.equal(expected);
    expect(await send(json, { 'content-type': 'application/json; charset=UTF-8' })).to.deep.equal(expected);
    expect(await send(`\ufeff${json}`)).to.deep.equal(expected);
  });

  it('should read other charsets and content encodings through body-parser, with the same result', async () => {
    const json = '{"a":"ü"}';
    expect(await send(gzipSync(json), { 'content-encoding': 'gzip' })).to.deep.equal({ ok: true, body: { a: 'ü' } });
    expect(
      await send(gzipSync(json), { 'content-encoding': 'gzip', 'content-type': 'application/json; charset=utf-8' }),
    ).to.deep.equal({ ok: true, body: { a: 'ü' } });
    // Bytes must be UTF-8 whatever the charset says (as PHP's json_decode wants them).
    expect(
      await send(Buffer.from(json, 'utf16le'), { 'content-type': 'application/json; charset=utf-16le' }),
    ).to.deep.include({ ok: false, status: 400, message: 'Decoding error.' });
    // body-parser knows only utf-* charsets by their full name.
    expect(await send(json, { 'content-type': 'application/json; charset=latin1' })).to.include({
      ok: false,
      status: 415,
    });
    expect(await send(json, { 'content-encoding': 'x-unknown' })).to.include({ ok: false, status: 415 });
  });

  it('should answer an empty chunked body as {}, as body-parser does, and no body as none', async () => {
    expect(await send('', { 'transfer-encoding': 'chunked' })).to.deep.equal({ ok: true, body: {} });
    expect(await send('', { 'content-length': '0' })).to.deep.equal({ ok: true, body: null });
  });

  it("should answer Magento's 400 for bytes that are not UTF-8 or not JSON, and for nesting past the limit", async () => {
    for (const [body, headers] of [
      [Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), {}],
      [
        Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
        { 'content-type': 'application/json; charset=utf-16le' },
      ],
      ['{"a":', {}],
      [gzipSync('{"a":'), { 'content-encoding': 'gzip' }],
    ] as const) {
      expect(await send(body, headers)).to.deep.include({ ok: false, status: 400, message: 'Decoding error.' });
    }
    expect(await send('[[[[[[1]]]]]]', {}, '/array')).to.include({ ok: false, status: 400 });
  });

  it('should accept an array only where asked (bulk), and nothing but an object elsewhere', async () => {
    expect(await send('[{"a":1}]', {}, '/array')).to.deep.equal({ ok: true, body: [{ a: 1 }] });
    for (const body of ['[{"a":1}]', '"text"', '3', 'null']) {
      expect(await send(body)).to.deep.equal({
        ok: false,
        status: 400,
        message: 'The request body must be a JSON object.',
      });
    }
  });

  it('should answer 413 for a declared length past the limit, and for a chunked body as it passes it', async () => {
    const big = JSON.stringify({ a: 'x'.repeat(2000) });
    expect(await send(big)).to.include({ ok: false, status: 413 });
    expect(await send(big, { 'transfer-encoding': 'chunked' })).to.include({ ok: false, status: 413 });
    // The limit is on the inflated body.
    expect(await send(gzipSync(big), { 'content-encoding': 'gzip' })).to.include({ ok: false, status: 413 });
  });

  it('should answer 408 when the body does not arrive within the timeout', async () => {
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"a":');
      });
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString()));
      socket.on('close', () => resolve(text));
      setTimeout(() => socket.destroy(), 6000);
    });
    expect(answer).to.match(/^HTTP\/1\.1 408/);
    expect(answer).to.match(/connection: close/i);
  });
});
