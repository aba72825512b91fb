/**
 * The request body as JSON, with Magento's answers for what is wrong with it: 415 for another
 * content type, charset or encoding, 413 past the limit (from Content-Length before a byte is
 * read, or as soon as a chunked body passes it), 408 when it trickles in past the timeout, 400
 * `Decoding error.` for bytes that are not UTF-8 or not JSON, and for nesting past the depth limit.
 *
 * Performance (issue 12): the common body (plain UTF-8 JSON, no Content-Encoding) is read here
 * straight from the stream and parsed with JSON.parse; body-parser (express.json) reads the rest
 * (gzip/deflate/br, UTF-16...), so both answer alike: an empty body is `{}`, a leading BOM is
 * dropped, as iconv-lite's decoding does.
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expressModule } from './expressModule.js';
import type { LocalizedException } from '../exception/LocalizedException.js';
import { assertDepth, DEFAULT_MAX_JSON_DEPTH } from './InputSafety.js';
import { WebapiException } from './WebapiException.js';

export interface JsonBodyOptions {
  /** Largest accepted body, in bytes. */
  readonly bodyLimit: number;
  /** Deepest nesting of arrays and objects (64 by default). */
  readonly maxJsonDepth?: number;
  /** How long the whole body may take to arrive once reading starts; 408 after. */
  readonly bodyTimeoutMs?: number;
}

export const CONTENT_TYPE_EMPTY = 'Content-Type header is empty.';
export const CONTENT_TYPE_NOT_UNDERSTOOD = 'Server cannot understand Content-Type HTTP header media type %1';
const BODY_TOO_LARGE = 'The request body is larger than the limit of %limit bytes.';
const BODY_TIMEOUT = 'The request body did not arrive within %timeout milliseconds.';
const DECODING_ERROR = 'Decoding error.';
const INCOMPLETE = 'The request body was incomplete.';
/** `charset=utf-8` (any case, optionally quoted): the one charset the direct path decodes. */
const UTF8_CHARSET = /;\s*charset\s*=\s*"?utf-8"?\s*(;|$)/i;

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
  charset?: string;
  encoding?: string;
}

type Request = IncomingMessage & { res?: ServerResponse; body?: unknown };

export class JsonBodyReader {
  private readonly parseJson: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

  constructor(private readonly options: JsonBodyOptions) {
    this.parseJson = expressModule().json({
      limit: options.bodyLimit,
      strict: false,
      type: () => true,
      verify: assertUtf8,
    }) as never;
  }

  /** The JSON body, undefined when there is none; an array only where `acceptArray` (bulk requests). */
  async read(req: Request, acceptArray = false): Promise<Record<string, unknown> | undefined> {
    const length = req.headers['content-length'];
    const hasBody = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return undefined;
    const rawContentType = req.headers['content-type'] ?? '';
    const contentType = rawContentType.split(';')[0]!.trim().toLowerCase();
    // Magento's texts (Webapi\Rest\Request::getContentType, Rest\Request\DeserializerFactory::get), this service's 415.
    if (contentType === '') throw new WebapiException(415, CONTENT_TYPE_EMPTY);
    if (contentType !== 'application/json' && !contentType.endsWith('+json'))
      throw new WebapiException(415, CONTENT_TYPE_NOT_UNDERSTOOD, [contentType]);
    // A declared length over the limit answers at once, before a byte of the body is read; the
    // connection then closes, so the rest of the body is never read either.
    const declared = Number(length);
    if (length !== undefined && Number.isFinite(declared) && declared > this.options.bodyLimit) {
      req.res!.setHeader('Connection', 'close');
      throw new WebapiException(413, BODY_TOO_LARGE, { limit: this.options.bodyLimit });
    }
    const encoding = req.headers['content-encoding'];
    const plain = encoding === undefined || encoding.trim().toLowerCase() === 'identity';
    const utf8 = !/charset/i.test(rawContentType) || UTF8_CHARSET.test(rawContentType);
    const direct = plain && utf8;
    const body = direct ? await this.readDirect(req) : await this.readWithBodyParser(req);
    if (body === undefined) return undefined;
    assertDepth(body, this.options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH);
    // PHP's json_encode writes an empty array for an empty object: `[]` is `{}` (Magento decodes both to array()).
    if (Array.isArray(body) && body.length === 0 && !acceptArray) return {};
    if (body === null || typeof body !== 'object' || (Array.isArray(body) && !acceptArray)) {
      throw new WebapiException(400, 'The request body must be a JSON object.');
    }
    return body as Record<string, unknown>;
  }

  /**
   * Reads the body within the limit and the timeout. `start` says when it is complete (or
   * broken); with `collect`, the bytes are kept and answered (the direct path), else body-parser
   * has them.
   */
  private receive(
    req: Request,
    collect: boolean,
    start: (settle: (error?: unknown) => void) => void,
  ): Promise<Buffer | undefined> {
    const timeoutMs = this.options.bodyTimeoutMs ?? 30_000;
    const limit = this.options.bodyLimit;
    return new Promise<Buffer | undefined>((resolve, reject) => {
      let settled = false;
      const chunks: Buffer[] = [];
      let received = 0;
      const cleanup = () => {
        settled = true;
        clearTimeout(timer);
        req.removeListener('data', onData);
      };
      const fail = (error: unknown) => {
        if (settled) return;
        cleanup();
        req.res!.setHeader('Connection', 'close');
        reject(error);
      };
      // A body trickled in slowly holds a connection: past the timeout it answers 408 and the
      // connection closes. A body that has all arrived already (most, with their headers) needs no timer.
      const timer = req.complete
        ? undefined
        : setTimeout(() => fail(new WebapiException(408, BODY_TIMEOUT, { timeout: timeoutMs })), timeoutMs);
      // A chunked body has no length to check up front: answer 413 as soon as it passes the limit
      // (body-parser itself would read it to the end first). Raw bytes: inflated ones are never fewer.
      const onData = (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit) fail(new WebapiException(413, BODY_TOO_LARGE, { limit }));
        else if (collect) chunks.push(chunk);
      };
      req.on('data', onData);
      start((error) => {
        if (settled) return;
        if (error !== undefined) return fail(error);
        cleanup();
        resolve(collect ? (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received)) : undefined);
      });
    });
  }

  private async readDirect(req: Request): Promise<unknown> {
    const bytes = await this.receive(req, true, (settle) => {
      req.once('end', () => settle());
      // The client went away (or the stream broke) before the body was complete.
      req.once('close', () => {
        if (!req.complete) settle(new WebapiException(400, INCOMPLETE));
      });
      req.once('error', () => settle(new WebapiException(400, INCOMPLETE)));
    });
    // PHP's json_decode refuses bytes that are not UTF-8 (0xFF, an encoded surrogate); decoding
    // them would store U+FFFD silently.
    if (!isUtf8(bytes!)) throw new WebapiException(400, DECODING_ERROR);
    let text = bytes!.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.length === 0) return {};
    try {
      return JSON.parse(text);
    } catch {
      throw new WebapiException(400, DECODING_ERROR);
    }
  }

  private async readWithBodyParser(req: Request): Promise<unknown> {
    await this.receive(req, false, (settle) => {
      this.parseJson(req, req.res!, (err) =>
        settle(err === undefined || err === null ? undefined : bodyError(err as BodyParserError)),
      );
    });
    return req.body;
  }
}

/** body-parser's verify hook: the same refusal of bytes that are not UTF-8 as the direct path. */
function assertUtf8(_req: IncomingMessage, _res: ServerResponse, body: Buffer): void {
  if (!isUtf8(body))
    throw Object.assign(new Error('The request body is not UTF-8'), { status: 400, type: 'entity.parse.failed' });
}

function bodyError(error: BodyParserError): LocalizedException | BodyParserError {
  switch (error.type) {
    case 'entity.parse.failed':
      return new WebapiException(400, DECODING_ERROR);
    case 'entity.too.large':
      return new WebapiException(413, BODY_TOO_LARGE, { limit: error.limit ?? 0 });
    case 'charset.unsupported':
      return new WebapiException(415, 'The charset "%charset" is not supported. Send the body as UTF-8.', {
        charset: error.charset ?? '',
      });
    case 'encoding.unsupported':
      return new WebapiException(415, 'The content encoding "%encoding" is not supported.', {
        encoding: error.encoding ?? '',
      });
    case 'request.size.invalid':
    case 'request.aborted':
      return new WebapiException(400, INCOMPLETE);
    default:
      // body-parser's other client errors, e.g. a body that does not inflate as its Content-Encoding says.
      if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
        return new WebapiException(400, 'The request body could not be decoded.');
      }
      return error;
  }
}
