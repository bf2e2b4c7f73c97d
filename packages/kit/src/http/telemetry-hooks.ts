/**
 * One OpenTelemetry server span per request, plus request count and duration through the meter.
 * Spans are named by route pattern (`GET /v1/scores/:id`) to keep their cardinality bounded.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, trace } from '@opentelemetry/api';
import type { Attributes, Span } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Telemetry } from '../telemetry.ts';
import { NO_TRACE, traceScope, type TraceScope } from '../trace-scope.ts';
import { isOperationalRoute } from './excluded-routes.ts';

/** The request's trace scope, for the route to pass on (NO_TRACE when tracing is off). */
export function traceOf(request: FastifyRequest): TraceScope {
  return request.trace ?? NO_TRACE;
}

export function installTelemetryHooks(app: FastifyInstance, telemetry: Telemetry): void {
  app.decorateRequest('trace', undefined);
  const spans = new WeakMap<FastifyRequest, Span>();
  const requests = telemetry.meter.createCounter('http.server.request.count', {
    description: 'HTTP requests handled',
  });
  const duration = telemetry.meter.createHistogram('http.server.request.duration', {
    description: 'HTTP request duration',
    unit: 's',
  });

  const start = (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    if (isOperationalRoute(route)) return;
    const parent = telemetry.propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
    const attributes: Attributes = { [ATTR_HTTP_REQUEST_METHOD]: request.method };
    if (route !== undefined) attributes[ATTR_HTTP_ROUTE] = route;
    const name = route === undefined ? request.method : `${request.method} ${route}`;
    const span = telemetry.tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
    spans.set(request, span);
    request.trace = traceScope(telemetry, trace.setSpan(parent, span));
  };
  app.addHook('onRequest', (request, _reply, done) => {
    start(request);
    done();
  });

  app.addHook('onError', async (request, _reply, error) => {
    spans.get(request)?.recordException(error);
  });

  app.addHook('onResponse', async (request, reply) => {
    const span = spans.get(request);
    if (span === undefined) return;
    spans.delete(request);
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    const attributes: Attributes = {
      [ATTR_HTTP_REQUEST_METHOD]: request.method,
      [ATTR_HTTP_ROUTE]: request.routeOptions.url ?? 'unmatched',
      [ATTR_HTTP_RESPONSE_STATUS_CODE]: reply.statusCode,
    };
    requests.add(1, attributes);
    duration.record(reply.elapsedTime / 1000, attributes);
  });

  // A client that hangs up never gets onResponse; end its span so it is still exported.
  app.addHook('onRequestAbort', (request, done) => {
    const span = spans.get(request);
    spans.delete(request);
    span?.setStatus({ code: SpanStatusCode.ERROR, message: 'client aborted the request' });
    span?.end();
    done();
  });
}
