/**
 * The OpenTelemetry SDK behind `startTelemetry`: providers and OTLP/HTTP exporters. Loaded only
 * when an endpoint is set; its ~900 modules would otherwise sit in every process's heap, which
 * lengthens every full garbage collection of a service that never exports.
 */
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { core } from '@opentelemetry/sdk-node';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Telemetry, TelemetryOptions } from './telemetry.ts';

export function createTelemetry(opts: TelemetryOptions & { endpoint: string }): Telemetry {
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
