import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { core } from '@opentelemetry/sdk-node';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import t from 'tap';
import type { Telemetry } from '../src/telemetry.ts';
import { NO_TRACE, traceScope } from '../src/trace-scope.ts';

function recording(): { telemetry: Telemetry; exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const telemetry = {
    tracer: provider.getTracer('test'),
    propagator: new core.W3CTraceContextPropagator(),
  } as unknown as Telemetry;
  return { telemetry, exporter };
}

t.test('child spans nest under the scope, and headers carry the innermost span', async (t) => {
  const { telemetry, exporter } = recording();
  const root = telemetry.tracer.startSpan('request');
  const scope = traceScope(telemetry, trace.setSpan(ROOT_CONTEXT, root));
  let sent: Record<string, string> = {};
  const answer = await scope.span(
    'append',
    async (inner) => {
      sent = inner.headers();
      return 42;
    },
    'producer',
  );
  root.end();
  t.equal(answer, 42);
  const [append] = exporter.getFinishedSpans();
  t.equal(append?.name, 'append');
  t.equal(append?.kind, SpanKind.PRODUCER);
  t.equal(append?.parentSpanContext?.spanId, root.spanContext().spanId);
  t.equal(sent.traceparent, `00-${root.spanContext().traceId}-${append?.spanContext().spanId}-01`);
});

t.test('a failing step ends its span as an error and rethrows', async (t) => {
  const { telemetry, exporter } = recording();
  const scope = traceScope(telemetry, ROOT_CONTEXT);
  await t.rejects(
    scope.span('apply', () => Promise.reject(new Error('redis is down'))),
    /redis is down/,
  );
  const [apply] = exporter.getFinishedSpans();
  t.equal(apply?.status.code, SpanStatusCode.ERROR);
  t.equal(apply?.events[0]?.name, 'exception');
});

t.test('with tracing off the scope runs the work and sends no headers', async (t) => {
  t.equal(
    await NO_TRACE.span('x', async (inner) => (inner === NO_TRACE ? 'same scope' : 'other')),
    'same scope',
  );
  t.same(NO_TRACE.headers(), {});
});
