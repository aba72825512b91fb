import { randomUUID } from 'node:crypto';
import {
  FrameworkServices,
  inject,
  injectable,
  LocalizedException,
  type Logger,
  type RequestContext,
} from '#framework';
import { AnswerCache } from './AnswerCache.js';
import { hookKey, hookLabel, resolveEnvPlaceholders, secretOf, type Hook } from './Hook.js';
import { HookRegistry } from './HookRegistry.js';
import { send } from './HttpSender.js';
import { rulesHold, selectFields } from '../../OutOfProcessExtensibility/Api/payloadFilters.js';
import { signatureHeaders } from '../../OutOfProcessExtensibility/Api/Signature.js';
import { applyOperation, parseOperations, type Operation } from './payload.js';
import { UrlPolicy } from './UrlPolicy.js';
import { WebhookMetrics } from './WebhookMetrics.js';

type Json = Record<string, unknown>;

/** Adobe's message when a required hook fails and declares no fallback message. */
export const DEFAULT_FALLBACK = 'Cannot perform the operation due to an error.';
/** The message of an `exception` answer that carries none. */
const DEFAULT_EXCEPTION = 'The operation was declined by a webhook.';
/** An `exception` answer's message: its own, else the hook's fallback message (Adobe), else the default. */
function exceptionMessage(veto: Operation, hook: Hook): string {
  if (typeof veto.message === 'string' && veto.message !== '') return veto.message;
  return hook.fallback_error_message ?? DEFAULT_EXCEPTION;
}

type Outcome = { operations: Operation[]; outcome: string } | { failure: string };

/**
 * Runs the hooks of one webhook method and type on a payload, as Adobe's webhooks do: the batches
 * one after another in `batch_order`, each seeing the payload as the batches before it changed it;
 * the hooks of one batch in parallel, on the same payload, their answers' changes then merged by
 * priority (where two change one path, the higher priority's change is kept). An `exception` answer (its message, else the hook's
 * `fallback_error_message`, else a default), or a failure of a `required` hook (Adobe's default),
 * fails the whole call (LocalizedException: 400 at the web API) and no later batch is called; an
 * optional hook that fails is logged and skipped.
 */
@injectable()
export class HookRunner {
  /** Answers kept for `ttl` (AnswerCache.ts: keyed by a hash, bounded in bytes). */
  readonly cache = new AnswerCache<Operation[]>();

  constructor(
    @inject('Dispensary\\Webhooks\\Model\\HookRegistry') private readonly registry: HookRegistry,
    @inject('Dispensary\\Webhooks\\Model\\UrlPolicy') private readonly urls: UrlPolicy,
    @inject('Dispensary\\Webhooks\\Model\\WebhookMetrics') private readonly metrics: WebhookMetrics,
    @inject(FrameworkServices.Logger) private readonly logger: Logger,
    @inject(FrameworkServices.RequestContext) private readonly context: RequestContext,
  ) {}

  /** Whether a hook is declared for the method and type (a cheap check before building a payload). */
  async has(method: string, type: 'before' | 'after'): Promise<boolean> {
    return (await this.registry.hooksFor(method, type)).length > 0;
  }

  /**
   * Runs the hooks; answers the payload with their changes applied (the same object when none).
   * Operations may only touch paths under `roots` (the arguments, the result, the event data).
   */
  async run(method: string, type: 'before' | 'after', payload: Json, roots: readonly string[]): Promise<Json> {
    const hooks = await this.registry.hooksFor(method, type);
    if (hooks.length === 0) return payload;
    const batches = new Map<string, Hook[]>();
    for (const hook of hooks) batches.set(hook.batch_name, [...(batches.get(hook.batch_name) ?? []), hook]);
    const ordered = [...batches.values()].sort((a, b) => a[0]!.batch_order - b[0]!.batch_order);
    const requestId = this.context.current()?.requestId ?? randomUUID();
    let current = payload;
    for (const batch of ordered) current = await this.runBatch(batch, current, roots, requestId);
    return current;
  }

  /** The payload as the batch's hooks changed it (the same object when they changed nothing). */
  private async runBatch(
    batch: readonly Hook[],
    payload: Json,
    roots: readonly string[],
    requestId: string,
  ): Promise<Json> {
    const called = batch.filter((hook) => rulesHold(hook.rules, payload));
    const settled = await Promise.allSettled(
      called.map((hook) => this.call(hook, selectFields(hook.fields, payload), requestId)),
    );
    const answers = settled.map((result, index) => {
      // call() never throws; a rejection here is a defect, and fails the call as a required hook would.
      if (result.status === 'rejected') {
        this.logger.error({ err: result.reason, hook: hookLabel(called[index]!) }, 'webhook: unexpected failure');
        return { hook: called[index]!, answer: { failure: 'internal_error' } as Outcome };
      }
      return { hook: called[index]!, answer: result.value };
    });
    // Highest priority first: its veto's message is the one answered.
    answers.sort((a, b) => b.hook.priority - a.hook.priority);
    for (const { hook, answer } of answers) {
      if ('failure' in answer) {
        if (hook.required) throw new LocalizedException(hook.fallback_error_message ?? DEFAULT_FALLBACK);
        continue;
      }
      const veto = answer.operations.find((operation) => operation.op === 'exception');
      if (veto) throw new LocalizedException(exceptionMessage(veto, hook));
    }
    let changed = payload;
    // Lowest priority first: where two hooks change one path, the higher priority's change is the one kept.
    for (const { hook, answer } of [...answers].reverse()) {
      if ('failure' in answer) continue;
      for (const operation of answer.operations) {
        if (operation.op === 'success') continue;
        if (changed === payload) changed = structuredClone(payload);
        if (!applyOperation(changed, operation, roots))
          this.logger.warn(
            { hook: hookLabel(hook), path: operation.path },
            'webhook: operation on a path outside the payload; ignored',
          );
      }
    }
    return changed;
  }

  private async call(hook: Hook, sent: unknown, requestId: string): Promise<Outcome> {
    const label = hookLabel(hook);
    const started = process.hrtime.bigint();
    const body = JSON.stringify(sent);
    const cacheKey = hook.ttl > 0 ? AnswerCache.key(hookKey(hook), hook.url, body) : undefined;
    const cached = cacheKey ? this.cache.get(cacheKey) : undefined;
    if (cached) {
      this.record(label, 'cached', started);
      return { operations: cached, outcome: 'cached' };
    }
    const fail = (failure: string): Outcome => {
      this.record(label, failure, started, undefined, hook.required);
      return { failure };
    };
    const resolved = resolveEnvPlaceholders(hook.url);
    if (resolved === null) return fail('unset_url_variable');
    let url: URL;
    try {
      url = this.urls.check(resolved);
    } catch {
      return fail('refused_url');
    }
    const secret = secretOf(hook);
    if (!secret) return fail('no_secret');
    const id = `msg_${randomUUID()}`;
    const headers: Record<string, string> = {};
    for (const header of hook.headers) {
      const value = resolveEnvPlaceholders(header.value);
      if (value === null) return fail('unset_header_variable');
      headers[header.name.toLowerCase()] = value;
    }
    Object.assign(headers, {
      'content-type': 'application/json',
      'user-agent': 'Dispensary-Webhooks/1',
      // Adobe's: the Commerce request the call belongs to (the x-request-id this service answered), for the receiver's logs.
      'x-adobe-commerce-request-id': requestId,
      ...signatureHeaders(secret, id, Math.floor(Date.now() / 1000), body),
    });
    const result = await send({
      url,
      method: hook.method && hook.method !== '' ? hook.method.toUpperCase() : 'POST',
      headers,
      body,
      timeoutMs: hook.timeout,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (hook.soft_timeout !== null && seconds * 1000 > hook.soft_timeout && result.kind !== 'timeout') {
      this.logger.warn(
        { hook: label, durationMs: Math.round(seconds * 1000), softTimeoutMs: hook.soft_timeout },
        'webhook: soft timeout exceeded',
      );
    }
    let outcome: Outcome;
    if (result.kind === 'timeout') outcome = { failure: 'timeout' };
    else if (result.kind === 'error') outcome = { failure: 'network_error' };
    else if (result.status < 200 || result.status > 299) outcome = { failure: 'http_error' };
    else {
      const operations = parseOperations(result.body);
      if (!operations) outcome = { failure: 'invalid_answer' };
      else {
        const kind = operations.some((op) => op.op === 'exception')
          ? 'exception'
          : operations.some((op) => op.op !== 'success')
            ? 'operations'
            : 'success';
        outcome = { operations, outcome: kind };
        if (cacheKey) this.cache.set(cacheKey, operations, hook.ttl, Buffer.byteLength(result.body));
      }
    }
    const name = 'failure' in outcome ? outcome.failure : outcome.outcome;
    this.record(label, name, started, result.kind === 'answer' ? result.status : undefined, hook.required);
    return outcome;
  }

  /** One line per call: the hook, how long, how it ended; never the payload, the headers or the secret. */
  private record(hook: string, outcome: string, started: bigint, status?: number, required?: boolean): void {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    this.metrics.observe(hook, outcome, seconds);
    const failed = !['success', 'operations', 'exception', 'cached'].includes(outcome);
    const line = {
      hook,
      outcome,
      durationMs: Math.round(seconds * 1000),
      ...(status !== undefined ? { status } : {}),
      ...(failed ? { required: required === true } : {}),
    };
    if (failed) this.logger.warn(line, 'webhook call failed');
    else this.logger.info(line, 'webhook call');
  }
}
