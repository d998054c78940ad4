// Prometheus metrics of machine translation, labelled by engine kind only (never by organization or engine
// row: the series stay few). They are made here, before the app's registry exists, and added to it by
// app.ts once the metrics plugin made it (GET /metrics).
import { Counter, Histogram, type Registry } from 'prom-client';

/** What became of one call to an engine. */
export type MtOutcome = 'ok' | 'cached' | 'failed' | 'paused' | 'no_pair' | 'limited';

export class MtMetrics {
  readonly requests = new Counter({
    name: 'tessera_mt_requests_total',
    help: 'Machine translation calls per engine kind and outcome (ok, cached, failed, paused, no_pair, limited)',
    labelNames: ['kind', 'outcome'],
    registers: [],
  });
  readonly characters = new Counter({
    name: 'tessera_mt_characters_total',
    help: 'Characters machine-translated per engine kind: sent to the engine, or answered from the cache',
    labelNames: ['kind', 'source'],
    registers: [],
  });
  readonly latency = new Histogram({
    name: 'tessera_mt_request_duration_seconds',
    help: 'Time one call to a machine translation engine took, its retries included',
    labelNames: ['kind'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [],
  });
  readonly pauses = new Counter({
    name: 'tessera_mt_pauses_total',
    help: 'Times a machine translation engine was paused after failing, per engine kind and reason',
    labelNames: ['kind', 'reason'],
    registers: [],
  });

  registerIn(registry: Registry): void {
    for (const metric of [this.requests, this.characters, this.latency, this.pauses]) {
      registry.registerMetric(metric);
    }
  }
}
