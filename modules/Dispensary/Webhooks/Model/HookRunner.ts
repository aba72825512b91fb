import { randomUUID } from 'node:crypto';
import { FrameworkServices, inject, injectable, LocalizedException, type Logger } from '#framework';
import { AnswerCache } from './AnswerCache.js';
import { hookKey, hookLabel, secretOf, type Hook } from './Hook.js';
import { HookRegistry } from './HookRegistry.js';
import { send } from './HttpSender.js';
import { applyOperation, parseOperations, rulesHold, selectFields, type Operation } from './payload.js';
import { signatureHeaders } from './Signature.js';
import { UrlPolicy } from './UrlPolicy.js';
import { WebhookMetrics } from './WebhookMetrics.js';

type Json = Record<string, unknown>;

/** Adobe's message when a required hook fails and declares no fallback message. */
export const DEFAULT_FALLBACK = 'Cannot perform the operation due to an error.';
/** The message of an `exception` answer that carries none. */
const DEFAULT_EXCEPTION = 'The operation was declined by a webhook.';

type Outcome = { operations: Operation[]; outcome: string } | { failure: string };

/**
 * Runs the hooks of one webhook method and type on a payload, as Adobe's webhooks do: batches in
 * parallel, the hooks of a batch one after another by priority (highest first), each seeing the
 * payload as the hooks before it in its batch changed it; the batches' changes are then applied in
 * batch order. An `exception` answer, or a failure of a `required` hook, fails the whole call
 * (LocalizedException: 400 at the web API); an optional hook that fails is logged and skipped.
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
    const settled = await Promise.allSettled(ordered.map((batch) => this.runBatch(batch, payload, roots)));
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const operations = settled.flatMap((result) => (result as PromiseFulfilledResult<Operation[]>).value);
    if (operations.length === 0) return payload;
    const changed = structuredClone(payload);
    for (const operation of operations) applyOperation(changed, operation, roots);
    return changed;
  }

  /** The batch's operations, in the order its hooks answered them. */
  private async runBatch(batch: readonly Hook[], payload: Json, roots: readonly string[]): Promise<Operation[]> {
    const hooks = [...batch].sort((a, b) => b.priority - a.priority);
    const collected: Operation[] = [];
    let seen = payload;
    for (const hook of hooks) {
      if (!rulesHold(hook.rules, seen)) continue;
      const answer = await this.call(hook, selectFields(hook.fields, seen));
      if ('failure' in answer) {
        if (hook.required) throw new LocalizedException(hook.fallback_error_message ?? DEFAULT_FALLBACK);
        continue;
      }
      const veto = answer.operations.find((operation) => operation.op === 'exception');
      if (veto)
        throw new LocalizedException(
          typeof veto.message === 'string' && veto.message !== '' ? veto.message : DEFAULT_EXCEPTION,
        );
      const changes = answer.operations.filter((operation) => operation.op !== 'success');
      if (changes.length === 0) continue;
      // Later hooks of the batch see the payload as this one changed it.
      if (seen === payload) seen = structuredClone(payload);
      for (const operation of changes) {
        if (applyOperation(seen, operation, roots)) collected.push(operation);
        else
          this.logger.warn(
            { hook: hookLabel(hook), path: operation.path },
            'webhook: operation on a path outside the payload; ignored',
          );
      }
    }
    return collected;
  }

  private async call(hook: Hook, sent: unknown): Promise<Outcome> {
    const label = hookLabel(hook);
    const started = process.hrtime.bigint();
    const body = JSON.stringify(sent);
    const cacheKey = hook.ttl > 0 ? AnswerCache.key(hookKey(hook), hook.url, body) : undefined;
    const cached = cacheKey ? this.cache.get(cacheKey) : undefined;
    if (cached) {
      this.record(label, 'cached', started);
      return { operations: cached, outcome: 'cached' };
    }
    let url: URL;
    try {
      url = this.urls.check(hook.url);
    } catch {
      this.record(label, 'refused_url', started);
      return { failure: 'refused_url' };
    }
    const secret = secretOf(hook);
    if (!secret) {
      this.record(label, 'no_secret', started);
      return { failure: 'no_secret' };
    }
    const id = `msg_${randomUUID()}`;
    const headers: Record<string, string> = {};
    for (const header of hook.headers) headers[header.name.toLowerCase()] = header.value;
    Object.assign(headers, {
      'content-type': 'application/json',
      'user-agent': 'Dispensary-Webhooks/1',
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
