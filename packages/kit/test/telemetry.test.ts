import t from 'tap';
import type { Test } from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { startTelemetry } from '../src/telemetry.ts';
import { testApp } from './http/helpers.ts';

interface Received {
  path: string;
  body: string;
}

async function fakeCollector(t: Test) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST')
        received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString() });
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}/`, received };
}

t.test('no endpoint, no telemetry', async (t) => {
  t.equal(await startTelemetry({ serviceName: 'x' }), undefined);
  t.equal(await startTelemetry({ serviceName: 'x', endpoint: '' }), undefined);
});

t.test('request spans and metrics reach the OTLP collector on shutdown', async (t) => {
  const collector = await fakeCollector(t);
  const telemetry = await startTelemetry({ serviceName: 'kit-test', endpoint: collector.endpoint });
  if (telemetry === undefined) throw new Error('telemetry should start');
  const app = await testApp({ telemetry });
  app.get('/items/:id', async () => ({ ok: true }));
  app.get('/fail', async () => {
    throw new Error('boom');
  });
  const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  await app.inject({ method: 'GET', url: '/items/7', headers: { traceparent: parent } });
  await app.inject({ method: 'GET', url: '/fail' });
  await app.inject({ method: 'GET', url: '/healthz' });
  await app.close();
  await telemetry.shutdown();

  const traces = collector.received.filter((r) => r.path === '/v1/traces');
  t.ok(traces.length > 0, 'spans were posted to /v1/traces');
  const spans = traces.map((r) => r.body).join('\n');
  t.match(spans, /GET \/items\/:id/, 'span named by route pattern');
  t.match(spans, /http\.route/);
  t.match(spans, /http\.response\.status_code/);
  t.match(spans, /0af7651916cd43dd8448eb211c80319c/, 'the caller trace is continued');
  t.match(spans, /"status":\{"code":2/, 'the 5xx span has error status');
  t.match(spans, /kit-test/, 'service.name resource');
  t.notMatch(spans, /healthz/, 'probes are not traced');
  t.ok(
    collector.received.some((r) => r.path === '/v1/metrics'),
    'metrics were posted to /v1/metrics',
  );
  t.match(
    collector.received
      .filter((r) => r.path === '/v1/metrics')
      .map((r) => r.body)
      .join(''),
    /http\.server\.request\.duration/,
  );
  t.equal(trace.getTracerProvider().constructor.name, 'ProxyTracerProvider', 'nothing registered globally');
});
