/** Prometheus metrics on /metrics from a registry owned by this app (never prom-client's global). */
import type { FastifyInstance } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { isOperationalRoute } from './excluded-routes.ts';
import type { ObserveRequest } from './fast-route-types.ts';
import { RequestHistogram } from './request-histogram.ts';

/** Installs /metrics and the per-request hook; returns how to count a request answered elsewhere. */
export function installMetrics(app: FastifyInstance): ObserveRequest {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new RequestHistogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route pattern',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registry,
  });
  app.decorate('metrics', registry);
  const observe: ObserveRequest = (method, route, statusCode, seconds) =>
    duration.observe(method, route, statusCode, seconds);
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
