/**
 * Search and REST figures at scale (issue 13's "Figures"): index lag p95 (goal ≤ 2 s) and query
 * latency at BENCH_MESSAGES stored messages (default 1,000,000 over 1,000 users), and REST list
 * and get throughput with wrk beside bare node:http in the same run.
 *
 * 1. Populate: a seeded corpus (bench/corpus.ts) written through the MetadataStore and
 *    SearchIndex ports in large batches (one group commit each), not through SMTP.
 * 2. Index lag: with the store full, the indexer running as `startMail` runs it, messages are
 *    filed and their change events enqueued as the worker does, at a steady rate; each one's lag
 *    is the time from its filing commit to the first search by its unique token that finds it.
 * 3. Query latency: queries of every supported kind for random users through the SearchIndex
 *    port in process, then through REST GET /v1/search against the server of step 4.
 * 4. REST throughput: bench/search-server.ts over the same data directory pinned to core 0,
 *    wrk on core 1 (packages/testkit's http-bench), a valid token of its user per request.
 *
 * Environment: BENCH_MESSAGES, BENCH_USERS, BENCH_LAG_RATE (per s), BENCH_LAG_SECONDS,
 * BENCH_QUERIES, BENCH_WRK_SECONDS, BENCH_CONNECTIONS, BENCH_RESULTS_DIR (where
 * mail-search.json goes; default bench-results/ at the repository root), BENCH_CPU_PROF (a
 * directory: the REST server writes a V8 CPU profile of its whole run there when it stops).
 * Exits non-zero on any error: a failed request, a delivered message never found.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mintToken } from '@tessera/kit';
import {
  BASELINE_SERVER,
  ensureWrk,
  loadAverage,
  runWrk,
  startPinned,
  type BenchServer,
  type Figures,
} from '@tessera/testkit';
import { openEmbeddedMail } from '../src/adapters/embedded/open-embedded.ts';
import { readMailConfig } from '../src/config.ts';
import { TOPIC, type ChangeEvent } from '../src/core/events.ts';
import { parseSearchQuery } from '../src/core/search-query.ts';
import { startMail } from '../src/mail.ts';
import type { MailPorts, StoredMessage } from '../src/ports.ts';
import { CORPUS_END, Corpus, DAY_MS, userId } from './corpus.ts';

const setting = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const MESSAGES = setting('BENCH_MESSAGES', 1_000_000);
const USERS = Math.min(setting('BENCH_USERS', 1000), MESSAGES);
const LAG_RATE = setting('BENCH_LAG_RATE', 200);
const LAG_SECONDS = setting('BENCH_LAG_SECONDS', 20);
const QUERIES = setting('BENCH_QUERIES', 3000);
const WRK_SECONDS = setting('BENCH_WRK_SECONDS', 10);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 16);
const BATCH = 5000;
const LAG_TICK_MS = 50;
const POLL_MS = 25;
const SECRET = 'mail-search-bench-secret-long-enough-for-hs256-0123456789';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}
const ms = (value: number): number => Math.round(value * 100) / 100;
const summary = (values: readonly number[]) => ({
  count: values.length,
  p50_ms: ms(quantile(values, 0.5)),
  p95_ms: ms(quantile(values, 0.95)),
  p99_ms: ms(quantile(values, 0.99)),
  max_ms: ms(quantile(values, 1)),
});

function progress(label: string, done: number, total: number, started: number): void {
  const rate = Math.round(done / ((performance.now() - started) / 1000));
  console.error(
    `  ${label}: ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} (${rate.toLocaleString('en-US')}/s)`,
  );
}

/** One stored message per user kept to read back (REST get) and its inbox to list. */
interface Sample {
  readonly user: string;
  readonly emailId: string;
}

async function populate(ports: MailPorts, corpus: Corpus): Promise<{ ms: number; samples: Sample[] }> {
  const started = performance.now();
  for (let u = 0; u < USERS; u++) await ports.metadata.ensureUser(userId(u));
  const samples: Sample[] = [];
  const step = Math.max(BATCH, Math.round(MESSAGES / 20 / BATCH) * BATCH);
  for (let done = 0; done < MESSAGES;) {
    const batch: StoredMessage[] = [];
    for (let i = 0; i < BATCH && done + i < MESSAGES; i++) {
      // Every user gets messages; past the first round, users at random.
      const user = done + i < USERS ? userId(done + i) : corpus.user();
      batch.push(corpus.message(user, corpus.receivedAt()));
    }
    // One event-loop turn each: the group commits put each batch in one transaction.
    await Promise.all(batch.map((m) => ports.metadata.insertMessage(m)));
    await Promise.all(
      batch.map((m) => ports.search.upsert({ ...m, has_attachment: m.attachments.length > 0 })),
    );
    for (const m of batch)
      if (samples.length < 5000 && corpus.pick(Math.ceil(MESSAGES / 5000)) === 0)
        samples.push({ user: m.user_id, emailId: m.email_id });
    done += batch.length;
    if (done % step === 0 || done === MESSAGES) progress('populate', done, MESSAGES, started);
  }
  if (samples.length === 0) throw new Error('no sample messages');
  return { ms: performance.now() - started, samples };
}

/** Messages filed and their change events enqueued as the worker does; each searched for by its token. */
async function indexLag(
  ports: MailPorts,
  corpus: Corpus,
): Promise<{ lags: number[]; delivered: number; found: number }> {
  const unreachable = (): Promise<never> => Promise.reject(new Error('no DNS in the benchmark'));
  // A failed index write is retried by the indexer; the benchmark still fails for it.
  const errors: unknown[] = [];
  const mail = await startMail({
    config: readMailConfig({ SMTP_PORT: '0' }),
    ports,
    smtpIn: false,
    parseThread: false,
    pollMs: 50,
    resolver: { resolveMx: unreachable, resolve4: unreachable, resolve6: unreachable },
    verifySender: () => Promise.resolve({ spf: 'none', dkim: 'none', dmarc: 'none' }),
    onError: (error) => errors.push(error),
  });
  const pending = new Map<string, { user: string; committed: number }>();
  const lags: number[] = [];
  const total = Math.round(LAG_RATE * LAG_SECONDS);
  const perTick = (LAG_RATE * LAG_TICK_MS) / 1000;
  let delivered = 0;
  let polling = true;
  const poller = (async () => {
    while (polling || pending.size > 0) {
      for (const [token, { user, committed }] of [...pending]) {
        const hits = await ports.search.search(
          user,
          { text: [token], from: [], to: [], subject: [] },
          { limit: 1 },
        );
        if (hits.length > 0) {
          lags.push(performance.now() - committed);
          pending.delete(token);
        }
      }
      await sleep(POLL_MS);
    }
  })();
  const started = performance.now();
  let owed = 0;
  for (let tick = 0; delivered < total; tick++) {
    owed += perTick;
    const copies = [];
    for (; owed >= 1 && delivered < total; owed--, delivered++) {
      const token = `lagtoken${String(delivered).padStart(7, '0')}`;
      const message = corpus.message(corpus.user(), Date.now(), token);
      copies.push({ token, message });
    }
    if (copies.length > 0) {
      await ports.metadata.fileCopies(
        copies.map(({ message }) => ({
          message,
          headers: { messageId: message.message_id, references: [] },
        })),
      );
      const committed = performance.now();
      for (const { token, message } of copies) pending.set(token, { user: message.user_id, committed });
      await Promise.all(
        copies.map(({ message: { user_id, email_id } }) => {
          const change: ChangeEvent = { v: 1, type: 'message.changed', user_id, email_id };
          return ports.queue.enqueue(TOPIC.changes, `${user_id}/${email_id}/stored`, change);
        }),
      );
    }
    const next = started + (tick + 1) * LAG_TICK_MS;
    await sleep(Math.max(0, next - performance.now()));
  }
  // Whatever is not found 30 s after the last delivery counts as lost.
  const deadline = performance.now() + 30_000;
  while (pending.size > 0 && performance.now() < deadline) await sleep(POLL_MS);
  const found = lags.length;
  pending.clear();
  polling = false;
  await poller;
  await mail.close();
  if (errors.length > 0) throw new Error(`index lag: ${errors.length} errors`, { cause: errors[0] });
  return { lags, delivered, found };
}

interface QueryKind {
  readonly kind: string;
  make(corpus: Corpus): string;
}

const date = (at: number): string => new Date(at).toISOString().slice(0, 10);
const QUERY_KINDS: readonly QueryKind[] = [
  { kind: 'word', make: (c) => c.word() },
  { kind: 'two words', make: (c) => `${c.word()} ${c.word()}` },
  { kind: 'from:', make: (c) => `from:${c.sender().email}` },
  { kind: 'subject:', make: (c) => `subject:${c.word()}` },
  { kind: 'is:unread', make: () => 'is:unread' },
  { kind: 'has:attachment', make: () => 'has:attachment' },
  {
    kind: 'before:/after:',
    make: (c) => {
      const from = CORPUS_END - (1 + c.pick(330)) * DAY_MS;
      return `after:${date(from)} before:${date(from + 30 * DAY_MS)}`;
    },
  },
  { kind: 'word is:unread', make: (c) => `${c.word()} is:unread` },
];

async function portQueries(
  ports: MailPorts,
  corpus: Corpus,
): Promise<Record<string, ReturnType<typeof summary>>> {
  const times = new Map<string, number[]>();
  for (let i = 0; i < QUERIES; i++) {
    const kind = QUERY_KINDS[i % QUERY_KINDS.length] ?? QUERY_KINDS[0];
    if (kind === undefined) break;
    const query = parseSearchQuery(kind.make(corpus));
    const started = performance.now();
    await ports.search.search(corpus.user(), query, { limit: 51 });
    const list = times.get(kind.kind) ?? [];
    list.push(performance.now() - started);
    times.set(kind.kind, list);
  }
  const all = [...times.values()].flat();
  return { all: summary(all), ...Object.fromEntries([...times].map(([k, v]) => [k, summary(v)])) };
}

async function restQueries(
  server: BenchServer,
  corpus: Corpus,
  tokens: readonly string[],
): Promise<Record<string, ReturnType<typeof summary>>> {
  const times = new Map<string, number[]>();
  for (let i = 0; i < QUERIES; i++) {
    const kind = QUERY_KINDS[i % QUERY_KINDS.length];
    if (kind === undefined) break;
    const q = kind.make(corpus);
    const token = tokens[corpus.pick(tokens.length)] ?? '';
    const started = performance.now();
    const response = await fetch(`${server.url}/v1/search?q=${encodeURIComponent(q)}&limit=50`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET /v1/search?q=${q}: ${response.status}`);
    const list = times.get(kind.kind) ?? [];
    list.push(performance.now() - started);
    times.set(kind.kind, list);
  }
  const all = [...times.values()].flat();
  return { all: summary(all), ...Object.fromEntries([...times].map(([k, v]) => [k, summary(v)])) };
}

const luaString = (s: string): string => JSON.stringify(s);

/** wrk requests picked at random from `targets` (path and token each). */
function wrkScript(targets: readonly { path: string; token: string }[]): { setup: string; request: string } {
  const rows = targets.map((t) => `{${luaString(t.path)},${luaString(`Bearer ${t.token}`)}}`).join(',\n');
  return {
    setup: `targets = {\n${rows}\n}\nmath.randomseed(42)\n`,
    request: `request = function()
  local t = targets[math.random(#targets)]
  return wrk.format("GET", t[1], { ["authorization"] = t[2] })
end`,
  };
}

function checkWrk(title: string, figures: Figures): Figures {
  if (figures.errors > 0) throw new Error(`${title}: ${figures.errors} errors`);
  if (figures.requests === 0) throw new Error(`${title}: no requests`);
  return figures;
}

function saveResults(results: unknown): void {
  const dir =
    process.env.BENCH_RESULTS_DIR ?? fileURLToPath(new URL('../../../bench-results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mail-search.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nresults: ${join(dir, 'mail-search.json')}`);
}

async function main(): Promise<void> {
  ensureWrk();
  const loadBefore = loadAverage();
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-mail-search-'));
  const servers: BenchServer[] = [];
  try {
    const corpus = new Corpus({ seed: 13, users: USERS });
    const ports = openEmbeddedMail({ dataDir, synchronous: 'normal' });
    console.error(
      `populating ${MESSAGES.toLocaleString('en-US')} messages over ${USERS} users in ${dataDir}`,
    );
    const population = await populate(ports, corpus);
    console.error(`index lag: ${LAG_RATE}/s for ${LAG_SECONDS} s`);
    const loadLag = loadAverage();
    const lag = await indexLag(ports, corpus);
    if (lag.found !== lag.delivered)
      throw new Error(`index lag: ${lag.delivered - lag.found} of ${lag.delivered} never found`);
    console.error(`queries through the SearchIndex port: ${QUERIES}`);
    const port = await portQueries(ports, corpus);
    await ports.close();

    const users = [...new Set(population.samples.map((s) => s.user))];
    const tokenOf = new Map<string, string>();
    for (const user of users)
      tokenOf.set(user, await mintToken({ secret: SECRET, sub: user, scopes: ['mail'] }));
    const token = (user: string): string => tokenOf.get(user) ?? '';

    const profileDir = process.env.BENCH_CPU_PROF;
    const server = await startPinned(
      [fileURLToPath(new URL('./search-server.ts', import.meta.url))],
      { ...process.env, BENCH_DATA_DIR: dataDir, BENCH_SECRET: SECRET },
      profileDir === undefined ? {} : { profileDir },
    );
    servers.push(server);
    console.error(`queries through REST GET /v1/search: ${QUERIES}`);
    const rest = await restQueries(server, corpus, [...tokenOf.values()]);

    const wrkDir = join(dataDir, 'wrk');
    mkdirSync(wrkDir, { recursive: true });
    const common = { dir: wrkDir, seconds: WRK_SECONDS, connections: CONNECTIONS };
    const list = checkWrk(
      'list',
      runWrk({
        ...common,
        server,
        title: 'GET /v1/folders/inbox/messages?limit=50',
        ...wrkScript(users.map((u) => ({ path: '/v1/folders/inbox/messages?limit=50', token: token(u) }))),
      }),
    );
    const get = checkWrk(
      'get',
      runWrk({
        ...common,
        server,
        title: 'GET /v1/messages/{id}',
        ...wrkScript(
          population.samples.map((s) => ({ path: `/v1/messages/${s.emailId}`, token: token(s.user) })),
        ),
      }),
    );
    server.stop();
    const baseline = await startPinned([BASELINE_SERVER], process.env);
    servers.push(baseline);
    const bare = checkWrk(
      'baseline',
      runWrk({
        ...common,
        server: baseline,
        title: 'bare node:http',
        setup: '',
        request: 'request = function() return wrk.format("GET", "/") end',
      }),
    );
    baseline.stop();

    const rate = (f: Figures) => Math.round(f.requestsPerSecond);
    const results = {
      machine: `${cpus()[0]?.model ?? 'unknown CPU'} · ${cpus().length} cores · Node ${process.version}`,
      load_average: { before: loadBefore, index_lag: loadLag, after: loadAverage() },
      setup: {
        messages: MESSAGES,
        users: USERS,
        body_bytes: '1024–4096',
        lag: { rate_per_s: LAG_RATE, seconds: LAG_SECONDS, poll_ms: POLL_MS, tick_ms: LAG_TICK_MS },
        queries: QUERIES,
        wrk: { seconds: WRK_SECONDS, connections: CONNECTIONS, pinned: 'server core 0, wrk core 1' },
      },
      population: {
        seconds: Math.round(population.ms / 100) / 10,
        messages_per_s: Math.round(MESSAGES / (population.ms / 1000)),
      },
      index_lag: { delivered: lag.delivered, found: lag.found, ...summary(lag.lags) },
      query_port: port,
      query_rest: rest,
      rest_list: {
        ...list,
        ratio_to_bare: Number((list.requestsPerSecond / bare.requestsPerSecond).toFixed(3)),
      },
      rest_get: {
        ...get,
        ratio_to_bare: Number((get.requestsPerSecond / bare.requestsPerSecond).toFixed(3)),
      },
      bare_node_http: bare,
    };
    const rows: [string, string][] = [
      [
        'population',
        `${results.population.messages_per_s.toLocaleString('en-US')} messages/s (${results.population.seconds} s)`,
      ],
      [
        'index lag',
        `p50 ${results.index_lag.p50_ms} ms  p95 ${results.index_lag.p95_ms} ms  max ${results.index_lag.max_ms} ms  (${lag.found}/${lag.delivered} found; goal p95 ≤ 2000 ms)`,
      ],
      ['query, port', `p50 ${port.all?.p50_ms} ms  p99 ${port.all?.p99_ms} ms`],
      ['query, REST', `p50 ${rest.all?.p50_ms} ms  p99 ${rest.all?.p99_ms} ms`],
      [
        'REST list',
        `${rate(list).toLocaleString('en-US')} req/s  p99 ${list.p99} ms  (${results.rest_list.ratio_to_bare} of bare)`,
      ],
      [
        'REST get',
        `${rate(get).toLocaleString('en-US')} req/s  p99 ${get.p99} ms  (${results.rest_get.ratio_to_bare} of bare)`,
      ],
      ['bare node:http', `${rate(bare).toLocaleString('en-US')} req/s  p99 ${bare.p99} ms`],
    ];
    console.log(
      `\nmail search at ${MESSAGES.toLocaleString('en-US')} messages, ${USERS} users · ${results.machine}`,
    );
    const width = Math.max(...rows.map(([name]) => name.length));
    for (const [name, value] of rows) console.log(`  ${name.padEnd(width)}  ${value}`);
    console.log('\nqueries by kind (REST, port):');
    for (const kind of QUERY_KINDS) {
      const r = rest[kind.kind];
      const p = port[kind.kind];
      console.log(
        `  ${kind.kind.padEnd(16)}  REST p50 ${r?.p50_ms} p99 ${r?.p99_ms} ms · port p50 ${p?.p50_ms} p99 ${p?.p99_ms} ms`,
      );
    }
    saveResults(results);
  } finally {
    for (const server of servers) server.stop();
    if (process.env.BENCH_KEEP_DATA === undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
