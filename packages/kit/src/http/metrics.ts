/** Prometheus metrics on /metrics from a registry owned by this app (never prom-client's global). */
import type { FastifyInstance } from 'fastify';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { isOperationalRoute } from './excluded-routes.ts';
import type { ObserveRequest } from './fast-routes.ts';

/** Installs /metrics and the per-request hook; returns how to count a request answered elsewhere. */
export function installMetrics(app: FastifyInstance): ObserveRequest {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route pattern',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.decorate('metrics', registry);

  // One child per (method, route, status), looked up by a plain key: prom-client's label hashing
  // on every request showed up as several percent of a request's time.
  const series = new Map<string, Histogram.Internal<'method' | 'route' | 'status_code'>>();
  const observe: ObserveRequest = (method, route, statusCode, seconds) => {
    const key = `${method} ${route} ${statusCode}`;
    let child = series.get(key);
    if (child === undefined) {
      child = duration.labels(method, route, String(statusCode));
      series.set(key, child);
    }
    child.observe(seconds);
  };
  app.addHook('onResponse', (request, reply, done) => {
    // The pattern (`/v1/scores/:id`), not the URL: one series per route, whatever the ids.
    const route = request.routeOptions.url;
    if (!isOperationalRoute(route)) {
      observe(request.method, route ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
  return observe;
}
