// One trace for a win, across processes and servers: an `api` process on JetStream, Redis and
// Cassandra exports to an OTLP/HTTP receiver this test runs; a POST's server span has the append
// (a producer span) and the ranking update as children, and the win's JetStream message carries
// the append's W3C trace context in its headers, so a consumer continues the same trace.
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { tempDir } from '@tessera/testkit';
import t from 'tap';
import { SECRET } from '../helpers/app.ts';
import { authHeaders } from '../helpers/auth-headers.ts';
import { distributedServers } from '../helpers/distributed.ts';
import { startApiProcess } from '../helpers/process.ts';

t.setTimeout(600_000);

interface ExportedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
}

/** OTLP/JSON ids are hex; some encoders send base64 bytes instead: normalise to hex. */
function hex(id: string | undefined): string {
  if (id === undefined || id === '') return '';
  return /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');
}

/** An OTLP/HTTP receiver (JSON) keeping every span it is sent. */
async function otlpReceiver(): Promise<{ url: string; spans: ExportedSpan[]; close(): Promise<void> }> {
  const spans: ExportedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: { scopeSpans?: { spans?: ExportedSpan[] }[] }[];
        };
        for (const resource of body.resourceSpans ?? [])
          for (const scope of resource.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({
                ...span,
                traceId: hex(span.traceId),
                spanId: hex(span.spanId),
                parentSpanId: hex(span.parentSpanId),
              });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const receiver = await otlpReceiver();
t.teardown(() => receiver.close());
const { env, natsUrl } = await distributedServers(t, 'trace');
const api = await startApiProcess({
  ...env,
  AUTH_JWT_SECRET: SECRET,
  DATA_DIR: tempDir(t),
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
});
t.teardown(() => api.stop());

async function spanNamed(name: string): Promise<ExportedSpan> {
  // The batch processor exports every few seconds: wait for it, boundedly.
  for (let i = 0; i < 60; i++) {
    const span = receiver.spans.find((s) => s.name === name);
    if (span !== undefined) return span;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(
    `no span named ${name} was exported (got: ${receiver.spans.map((s) => s.name).join(', ')})`,
  );
}

t.test('a POST is one trace: server span, append to JetStream, ranking update', async (t) => {
  const headers = { ...(await authHeaders(SECRET)(['scores:write'])), 'content-type': 'application/json' };
  const posted = await fetch(`${api.url}/v1/scores`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ user_id: 'traced-player', points: 3, match_id: 'trace-m1' }),
  });
  t.equal(posted.status, 200);

  const server = await spanNamed('POST /v1/scores');
  const append = await spanNamed('leaderboard.win.append');
  const apply = await spanNamed('leaderboard.ranking.apply');
  t.equal(append.traceId, server.traceId, 'the append is in the request’s trace');
  t.equal(append.parentSpanId, server.spanId, 'as a child of the server span');
  t.equal(append.kind, 4, 'a producer span (it sends a message)');
  t.equal(apply.traceId, server.traceId, 'the ranking update is in the same trace');
  t.equal(apply.parentSpanId, server.spanId);

  // The message on the stream carries the append's context: a consumer's span would join the trace.
  const nc = await connect({ servers: natsUrl });
  t.teardown(() => nc.close());
  const jsm = await jetstreamManager(nc);
  const period = new Date().toISOString().slice(0, 7);
  const message = await jsm.streams.getMessage(env.LEADERBOARD_STREAM!, {
    last_by_subj: `${env.LEADERBOARD_STREAM_SUBJECT!}.${period}`,
  });
  const traceparent = message?.header.get('traceparent') ?? '';
  t.match(traceparent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/, 'a W3C traceparent header');
  const [, traceId, parentId] = traceparent.split('-');
  t.equal(traceId, server.traceId);
  t.equal(parentId, append.spanId, 'whose parent is the append span');
});
