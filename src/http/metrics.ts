// Prometheus metrics: request counts and latencies by route; other modules add their own to the registry.
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { App } from './types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
}

export const metricsPlugin = fp(async (app: App) => {
  // One registry per app, so that tests building several apps do not share counters.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'tessera_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'tessera_http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  app.decorate('metrics', registry);

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL: query strings (and keys in them) never become label values.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
});
