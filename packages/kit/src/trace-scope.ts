/**
 * Tracing as a service sees it: a scope it can open child spans in and take message headers from,
 * without naming OpenTelemetry. The HTTP layer hands each request's scope to the route
 * (`traceOf(request)`); with tracing off every scope is NO_TRACE, which costs nothing.
 */
import { SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { Telemetry } from './telemetry.ts';

export type SpanRole = 'internal' | 'producer' | 'client';

export interface TraceScope {
  /** Runs `work` in a child span named `name`, ended when its promise settles (an error marks it failed). */
  span<T>(name: string, work: (scope: TraceScope) => Promise<T>, role?: SpanRole): Promise<T>;
  /** W3C trace context (`traceparent`) for a message sent in this scope; empty when tracing is off. */
  headers(): Record<string, string>;
}

export const NO_TRACE: TraceScope = {
  span: (_name, work) => work(NO_TRACE),
  headers: () => ({}),
};

const KINDS: Record<SpanRole, SpanKind> = {
  internal: SpanKind.INTERNAL,
  producer: SpanKind.PRODUCER,
  client: SpanKind.CLIENT,
};

/** The scope of `context` (a request's server span, say) on `telemetry`'s tracer. */
export function traceScope(telemetry: Telemetry, context: Context): TraceScope {
  return {
    async span(name, work, role = 'internal') {
      const child: Span = telemetry.tracer.startSpan(name, { kind: KINDS[role] }, context);
      try {
        return await work(traceScope(telemetry, trace.setSpan(context, child)));
      } catch (error) {
        child.recordException(error instanceof Error ? error : String(error));
        child.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        child.end();
      }
    },
    headers() {
      const carrier: Record<string, string> = {};
      telemetry.propagator.inject(context, carrier, {
        set: (target: Record<string, string>, key: string, value: string) => {
          target[key] = value;
        },
      });
      return carrier;
    },
  };
}
