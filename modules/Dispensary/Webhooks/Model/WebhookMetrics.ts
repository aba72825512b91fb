import { Counter, Histogram, type Registry } from 'prom-client';
import { FrameworkServices, inject, injectable } from '#framework';

/** `/metrics`: webhook calls and their duration, by hook and outcome. */
@injectable()
export class WebhookMetrics {
  private readonly calls: Counter<'hook' | 'outcome'>;
  private readonly duration: Histogram<'hook' | 'outcome'>;

  constructor(@inject(FrameworkServices.MetricsRegistry) registry: Registry) {
    this.calls = new Counter({
      name: 'webhook_calls_total',
      help: 'Webhook calls by hook (method:type:batch:hook) and outcome (success, exception, operations, timeout, http_error, invalid_answer, network_error, cached)',
      labelNames: ['hook', 'outcome'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'webhook_call_duration_seconds',
      help: 'Duration of webhook calls by hook and outcome',
      labelNames: ['hook', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
  }

  observe(hook: string, outcome: string, seconds: number): void {
    this.calls.inc({ hook, outcome });
    this.duration.observe({ hook, outcome }, seconds);
  }
}
