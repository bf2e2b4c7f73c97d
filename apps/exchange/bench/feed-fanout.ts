/**
 * WebSocket fan-out (docs/exchange-websocket.md): SUBSCRIBERS real `ws` clients on loopback
 * subscribe to AAPL; BATCHES batches of ORDERS crossing orders go through the service. Per batch:
 * the spread between the first and the last subscriber receiving its `md` message (fair
 * distribution: the same bytes written to all in one turn), and the time from the batch's commit
 * to the last subscriber. Clients run in this process too, so the figures include their reading.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { createAuthenticator, createHttpApp, createLogger, openSqlite } from '@tessera/kit';
import { SqliteJournal } from '../src/adapters/embedded/sqlite-journal.ts';
import { exchangeRules, readExchangeConfig } from '../src/config.ts';
import { FeedHub } from '../src/http/feed-hub.ts';
import { FEED_PATH, feedRoute } from '../src/http/feed-route.ts';
import { ExchangeService } from '../src/service.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 200);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 20);

const dir = mkdtempSync(join(tmpdir(), 'ex-fanout-'));
const app = await createHttpApp({
  name: 'fanout',
  version: '0',
  logger: createLogger({ level: 'silent', name: 'bench' }),
  authenticator: createAuthenticator({ secret: 'bench-secret-that-is-long-enough-for-hs256-0000' }),
  rateLimitEnabled: false,
});
const config = readExchangeConfig({ EXCHANGE_HOURS: 'always' });
const service = ExchangeService.open({
  rules: exchangeRules(config),
  journal: new SqliteJournal(openSqlite(join(dir, 'j.db'), { synchronous: 'normal' })),
});
await app.register(feedRoute, { service, hub: new FeedHub(1 << 24, (s) => service.feedSnapshot(s)) });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;

const arrivals = new Map<number, number[]>();
const clients = await Promise.all(
  Array.from({ length: SUBSCRIBERS }, async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${FEED_PATH}`);
    await new Promise((resolve) => ws.once('open', resolve));
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString()) as { type: string; seq: number };
      if (m.type !== 'md') return;
      let list = arrivals.get(m.seq);
      if (list === undefined) arrivals.set(m.seq, (list = []));
      list.push(performance.now());
    });
    ws.send(JSON.stringify({ op: 'subscribe', symbol: 'AAPL' }));
    return ws;
  }),
);
await service.deposit('a', 1e12);
await service.deposit('b', 0, { AAPL: 1e9 });
await new Promise((resolve) => setTimeout(resolve, 200));

const committed = new Map<number, number>();
for (let b = 0; b < BATCHES; b++) {
  for (let i = 0; i < ORDERS; i++) {
    const side = i % 2 === 0 ? 'sell' : 'buy';
    service.submitOrder(side === 'sell' ? 'b' : 'a', {
      symbol: 'AAPL',
      side,
      price: 1000 + (i % 7),
      orderType: 'limit',
      quantity: 1 + (i % 5),
    });
  }
  await service.durable();
  committed.set(service.seq, performance.now());
  const seq = service.seq;
  const deadline = performance.now() + 5_000;
  while ((arrivals.get(seq)?.length ?? 0) < SUBSCRIBERS && performance.now() < deadline)
    await new Promise((resolve) => setImmediate(resolve));
}

const spreads: number[] = [];
const lasts: number[] = [];
for (const [seq, at] of committed) {
  const list = arrivals.get(seq) ?? [];
  if (list.length < SUBSCRIBERS) throw new Error(`batch ${seq}: ${list.length} of ${SUBSCRIBERS} got it`);
  spreads.push(Math.max(...list) - Math.min(...list));
  lasts.push(Math.max(...list) - at);
}
const pct = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) * p)]!;
console.log(
  `${SUBSCRIBERS} subscribers, ${BATCHES} batches of ${ORDERS} orders, ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  `first→last subscriber spread: p50 ${pct(spreads, 0.5).toFixed(2)} ms, p99 ${pct(spreads, 0.99).toFixed(2)} ms`,
);
console.log(
  `commit→last subscriber: p50 ${pct(lasts, 0.5).toFixed(2)} ms, p99 ${pct(lasts, 0.99).toFixed(2)} ms`,
);
for (const ws of clients) ws.close();
await app.close();
await service.close();
rmSync(dir, { recursive: true, force: true });
