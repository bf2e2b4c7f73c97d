/**
 * OpenTelemetry export over OTLP/HTTP. Providers are created per call and never registered
 * globally, so tests and the embedded runner can start several without fighting over the API's
 * global singletons; the HTTP layer uses the returned tracer and meter directly.
 */
import type { Meter, TextMapPropagator, Tracer } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { core } from '@opentelemetry/sdk-node';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

export interface Telemetry {
  readonly tracer: Tracer;
  readonly meter: Meter;
  /** W3C trace context, so a request continues the caller's trace. */
  readonly propagator: TextMapPropagator;
  /** Flushes pending spans and metrics, then stops exporting. */
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  serviceName: string;
  endpoint?: string;
  /** How often metrics are pushed; default 60 s (the OTel SDK default). */
  metricIntervalMs?: number;
}

export function startTelemetry(opts: TelemetryOptions): Telemetry | undefined {
  if (opts.endpoint === undefined || opts.endpoint === '') return undefined;
  const base = opts.endpoint.replace(/\/+$/, '');
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: opts.serviceName });

  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${base}/v1/traces` }))],
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${base}/v1/metrics` }),
        exportIntervalMillis: opts.metricIntervalMs ?? 60_000,
      }),
    ],
  });

  return {
    tracer: tracerProvider.getTracer(opts.serviceName),
    meter: meterProvider.getMeter(opts.serviceName),
    propagator: new core.W3CTraceContextPropagator(),
    async shutdown() {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
