/**
 * OpenTelemetry export over OTLP/HTTP. Providers are created per call and never registered
 * globally, so tests and the embedded runner can start several without fighting over the API's
 * global singletons; the HTTP layer uses the returned tracer and meter directly.
 */
import type { Meter, TextMapPropagator, Tracer } from '@opentelemetry/api';

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

/** Undefined without an endpoint; the SDK is imported only when there is one. */
export async function startTelemetry(opts: TelemetryOptions): Promise<Telemetry | undefined> {
  const endpoint = opts.endpoint;
  if (endpoint === undefined || endpoint === '') return undefined;
  const { createTelemetry } = await import('./telemetry-sdk.ts');
  return createTelemetry({ ...opts, endpoint });
}
