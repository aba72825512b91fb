/**
 * Requests through the whole application without a socket: light-my-request (the library behind
 * Fastify's `inject()`) hands a request and response object straight to the Express app, so the
 * front controller, its middleware, plugins and the database run as they do for a client, but no
 * port is opened and no connection made. `TestApp.request()` answers one of these:
 *
 *   const res = await t.request().get('/rest/V1/store/storeViews').set('Authorization', `Bearer ${token}`);
 *   expect(res.status).to.equal(200);
 *   await t.request().post('/rest/V1/products').send({ product }).expect(200);
 *
 * The chain and the response are the part of supertest's that the suites use (`set`, `send`,
 * `query`, `type`, `accept`, `expect`; `status`, `body`, `text`, `headers`, `type`), so a suite
 * moves from `request(t.http)` to `t.request()` and nothing else changes. What it cannot do is what
 * needs a connection: keep-alive, a client that goes away, limits at the socket, TLS. The client
 * address is 127.0.0.1 unless `remoteAddress` says otherwise. Suites that test the HTTP server keep
 * supertest (or fetch) on a real socket (docs/testing.md).
 */
import { Writable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isDeepStrictEqual, inspect } from 'node:util';
import { inject, type InjectOptions } from 'light-my-request';

/** What a request goes to: an Express app, or any `(req, res)` handler. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface InjectAgentOptions {
  /** The client's address as the application sees it (`req.socket.remoteAddress`). Default 127.0.0.1. */
  readonly remoteAddress?: string;
}

/** A response, shaped as supertest's. */
export interface InjectResponse {
  readonly status: number;
  readonly statusCode: number;
  /** Header names in lower case (typed loosely, as supertest's). */
  readonly headers: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The same as headers (supertest has both). */
  readonly header: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The media type without parameters: `application/json`. */
  readonly type: string;
  readonly charset: string | undefined;
  /** The payload as text. */
  readonly text: string;
  /** JSON and form payloads parsed; `{}` for others (as supertest). */
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** 2xx. */
  readonly ok: boolean;
  /** What was asked: the method and the URL (`http://127.0.0.1/rest/...`, the Host header's). */
  readonly request: { readonly method: string; readonly url: string };
  get(name: string): string | undefined;
}

type Expectation = (res: InjectResponse) => void;
type Query = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
type Method = (typeof METHODS)[number];

/** `t.request()`: one method per HTTP verb, each starting a request, as supertest's `request(app)`. */
export type InjectAgent = { readonly [M in Method]: (path: string) => InjectRequest };

export function injectAgent(handler: RequestHandler, options: InjectAgentOptions = {}): InjectAgent {
  const agent = {} as Record<Method, (path: string) => InjectRequest>;
  const dispatch = dispatcherOf(handler);
  for (const method of METHODS) agent[method] = (path) => new InjectRequest(dispatch, method, path, options);
  return agent;
}

/**
 * The response's socket is a sink that takes every byte at once. light-my-request's own answers its
 * writes a tick later, and until then Node counts the answer as not yet written out: the request
 * log, which asks `res.writableFinished` when the response closes, would log every request as
 * abandoned by its client (499).
 */
function instantSink(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

interface ExpressLike extends RequestHandler {
  request: object;
  response: object;
  handle(req: IncomingMessage, res: ServerResponse): void;
}

function isExpress(handler: RequestHandler): handler is ExpressLike {
  const app = handler as Partial<ExpressLike>;
  return typeof app.handle === 'function' && (app.request as { app?: unknown } | undefined)?.app === handler;
}

/** A prototype's own members but its constructor, as property descriptors. */
function membersOf(prototype: object): PropertyDescriptorMap {
  const { constructor: _constructor, ...members } = Object.getOwnPropertyDescriptors(prototype);
  return members;
}

/**
 * What light-my-request is given: the handler, called with a sink for a socket. An Express app
 * sets its own prototypes on the request and response (`Object.setPrototypeOf(res, app.response)`),
 * which takes away light-my-request's methods (the ones that record the answer). light-my-request
 * knows that and, given an Express app, splices its classes under Express's prototypes for the
 * whole process: after that every real server's response in the process fails in
 * light-my-request's code. So it is handed a plain function, and the app is called through a view
 * of it whose request and response prototypes carry light-my-request's methods above the app's own:
 * nothing shared changes, and supertest on the same app keeps working.
 */
function dispatcher(handler: RequestHandler): RequestHandler {
  let view: ExpressLike | undefined;
  return (req, res) => {
    if (isExpress(handler))
      view ??= Object.create(handler, {
        request: { value: Object.create(handler.request, membersOf(Object.getPrototypeOf(req) as object)) },
        response: { value: Object.create(handler.response, membersOf(Object.getPrototypeOf(res) as object)) },
      }) as ExpressLike;
    if (res.socket) res.detachSocket(res.socket);
    res.assignSocket(instantSink() as never);
    if (view) view.handle(req, res);
    else handler(req, res);
  };
}

const dispatchers = new WeakMap<RequestHandler, RequestHandler>();

function dispatcherOf(handler: RequestHandler): RequestHandler {
  let dispatch = dispatchers.get(handler);
  if (!dispatch) dispatchers.set(handler, (dispatch = dispatcher(handler)));
  return dispatch;
}

function appendQuery(search: URLSearchParams, key: string, value: unknown): void {
  if (value === undefined) return;
  if (Array.isArray(value)) for (const item of value) appendQuery(search, key, item);
  else if (value !== null && typeof value === 'object')
    for (const [inner, item] of Object.entries(value)) appendQuery(search, `${key}[${inner}]`, item);
  else search.append(key, value === null ? '' : String(value));
}

function isPlainData(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === 'object' && !Buffer.isBuffer(value);
}

/** One request being built; awaiting it sends it (once) and answers the response. */
export class InjectRequest implements PromiseLike<InjectResponse> {
  private readonly headers: Record<string, string> = {};
  private readonly queries: string[] = [];
  private payload: unknown;
  private readonly expectations: Expectation[] = [];
  private sent: Promise<InjectResponse> | undefined;

  constructor(
    /** The app as light-my-request is to call it (dispatcherOf). */
    private readonly dispatch: RequestHandler,
    private readonly method: Method,
    private readonly path: string,
    private readonly options: InjectAgentOptions,
  ) {}

  set(name: string | Record<string, string>, value?: string): this {
    if (typeof name === 'object') for (const [key, item] of Object.entries(name)) this.set(key, item);
    else this.headers[name.toLowerCase()] = String(value);
    return this;
  }

  type(type: string): this {
    const types: Record<string, string> = {
      json: 'application/json',
      form: 'application/x-www-form-urlencoded',
      text: 'text/plain',
      html: 'text/html',
      xml: 'application/xml',
    };
    return this.set('content-type', types[type] ?? type);
  }

  accept(type: string): this {
    return this.set('accept', type === 'json' ? 'application/json' : type);
  }

  query(query: string | Query): this {
    if (typeof query === 'string') this.queries.push(query);
    else {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) appendQuery(search, key, value);
      this.queries.push(search.toString());
    }
    return this;
  }

  /** An object or array is sent as JSON (objects of several calls merged), a string or Buffer as it is. */
  send(data: unknown): this {
    if (isPlainData(data) && !Array.isArray(data) && isPlainData(this.payload) && !Array.isArray(this.payload))
      this.payload = { ...this.payload, ...data };
    else if (typeof data === 'string' && typeof this.payload === 'string') this.payload += data;
    else this.payload = data;
    return this;
  }

  /** As supertest: a status, a status and a body, a header and its value (or pattern), or a function. */
  expect(status: number, body?: unknown): this;
  expect(header: string, value: string | RegExp): this;
  expect(check: Expectation): this;
  expect(first: number | string | Expectation, second?: unknown): this {
    const hasSecond = arguments.length > 1;
    if (typeof first === 'function') this.expectations.push(first);
    else if (typeof first === 'number')
      this.expectations.push((res) => {
        if (res.status !== first) throw new Error(`expected ${first}, got ${res.status}: ${res.text.slice(0, 500)}`);
        if (!hasSecond) return;
        const actual = typeof second === 'string' ? res.text : res.body;
        const matches = second instanceof RegExp ? second.test(res.text) : isDeepStrictEqual(actual, second);
        if (!matches) throw new Error(`expected body ${inspect(second)}, got ${inspect(actual)}`);
      });
    else
      this.expectations.push((res) => {
        const actual = res.get(first);
        const matches = second instanceof RegExp ? actual !== undefined && second.test(actual) : actual === second;
        if (!matches) throw new Error(`expected header ${first} ${inspect(second)}, got ${inspect(actual)}`);
      });
    return this;
  }

  then<A = InjectResponse, B = never>(
    onFulfilled?: ((res: InjectResponse) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: any) => B | PromiseLike<B>) | null, // eslint-disable-line @typescript-eslint/no-explicit-any
  ): Promise<A | B> {
    this.sent ??= this.send_();
    return this.sent.then(onFulfilled, onRejected);
  }

  catch<B = never>(
    onRejected?: ((reason: any) => B | PromiseLike<B>) | null, // eslint-disable-line @typescript-eslint/no-explicit-any
  ): Promise<InjectResponse | B> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<InjectResponse> {
    return this.then().finally(onFinally);
  }

  private async send_(): Promise<InjectResponse> {
    const headers: Record<string, string> = { host: '127.0.0.1', 'user-agent': 'inject', ...this.headers };
    let payload: string | Buffer | undefined;
    if (this.payload === undefined) payload = undefined;
    else if (Buffer.isBuffer(this.payload)) payload = this.payload;
    else if (typeof this.payload === 'string') {
      payload = this.payload;
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(this.payload as Query)) appendQuery(search, key, value);
      payload = search.toString();
    } else {
      payload = JSON.stringify(this.payload);
      headers['content-type'] ??= 'application/json';
    }
    const query = this.queries.filter((q) => q !== '').join('&');
    const url = query === '' ? this.path : `${this.path}${this.path.includes('?') ? '&' : '?'}${query}`;
    const options: InjectOptions = {
      method: this.method.toUpperCase() as InjectOptions['method'],
      url,
      headers,
      remoteAddress: this.options.remoteAddress ?? '127.0.0.1',
      ...(payload === undefined ? {} : { payload }),
    };
    const raw = await inject(this.dispatch, options);
    const asked = { method: options.method!, url: `http://${headers.host}${url}` };
    const res = responseOf(raw.statusCode, raw.headers, raw.rawPayload, asked);
    for (const expectation of this.expectations) expectation(res);
    return res;
  }
}

function responseOf(
  status: number,
  headers: Record<string, string | string[] | number | undefined>,
  rawPayload: Buffer,
  request: InjectResponse['request'],
): InjectResponse {
  const normalized: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    normalized[name.toLowerCase()] = typeof value === 'number' ? String(value) : value;
  const contentType = String(normalized['content-type'] ?? '');
  const [mediaType = '', ...parameters] = contentType.split(';').map((part) => part.trim());
  const charset = parameters.find((p) => p.toLowerCase().startsWith('charset='))?.slice('charset='.length);
  const text = rawPayload.toString('utf8');
  let body: unknown = {};
  if (/^application\/(?:.+\+)?json$/i.test(mediaType) && text !== '') body = JSON.parse(text);
  else if (mediaType === 'application/x-www-form-urlencoded') body = Object.fromEntries(new URLSearchParams(text));
  return {
    status,
    statusCode: status,
    headers: normalized,
    header: normalized,
    type: mediaType.toLowerCase(),
    charset,
    text,
    body,
    ok: status >= 200 && status < 300,
    request,
    get: (name) => {
      const value = normalized[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}
