// A read is taken from the state in memory, which may hold commands whose batch the journal's
// writer thread is still writing; it leaves only once they are durable (durable-reads.ts), over
// the full routes and the fast answers at the edge alike.
import t from 'tap';
import { exchangeRoutes } from '../../src/http/routes.ts';
import type { ExchangeService, OrderInput } from '../../src/service.ts';
import { exchangeApp, fastEdgeApp } from './exchange-app.ts';

const buy: OrderInput = { symbol: 'AAPL', side: 'buy', price: 150, orderType: 'limit', quantity: 10 };

/** Applies alice's buy (not durable yet) and says when its batch has become durable. */
function pendingBuy(service: ExchangeService) {
  const order = service.submitOrder('alice', buy);
  const state = { durable: false };
  // Registered before any read's wait on the same commit: it runs first.
  void service.durable().then(() => {
    state.durable = true;
  });
  return { order, state };
}

t.test(
  'full routes: a read that shows a command still being written leaves once it is durable',
  async (t) => {
    const { app, service, token } = await exchangeApp(t, {
      journal: 'thread',
      register: (app, service) =>
        app.register(exchangeRoutes, { service, tradeLimitPerMinute: 1_000, readLimitPerMinute: 1_000 }),
    });
    await service.deposit('alice', 1_000_000);
    const headers = { authorization: `Bearer ${await token('alice', 'trade')}` };
    for (const url of [
      (id: number) => `/v1/order/${id}`,
      () => '/v1/orders',
      () => '/v1/accounts/me',
      () => '/marketdata/orderBook/L1?symbol=AAPL',
      () => '/marketdata/orderBook/L2?symbol=AAPL',
    ]) {
      const { order, state } = pendingBuy(service);
      const res = await app.inject({ method: 'GET', url: url(order.id), headers });
      t.equal(res.statusCode, 200, url(order.id));
      t.ok(state.durable, `${url(order.id)}: sent only once the buy's batch was durable`);
    }
    await service.durable();
    const res = await app.inject({ method: 'GET', url: '/marketdata/orderBook/L1?symbol=AAPL', headers });
    t.match(JSON.parse(res.body), { bid: { price: 150 } }, 'with nothing pending, at once');
  },
);

t.test('fast answers at the edge: the same', async (t) => {
  const { port, service, token, reachedFastify } = await fastEdgeApp(t, 'thread');
  await service.deposit('alice', 1_000_000);
  const headers = { authorization: `Bearer ${await token('alice', 'trade')}` };
  // The edge answers for a token the full route has verified once.
  await (await fetch(`http://127.0.0.1:${port}/v1/accounts/me`, { headers })).text();
  const verified = reachedFastify.length;
  for (const path of [(id: number) => `/v1/order/${id}`, () => '/marketdata/orderBook/L2?symbol=AAPL']) {
    const { order, state } = pendingBuy(service);
    const res = await fetch(`http://127.0.0.1:${port}${path(order.id)}`, { headers });
    await res.text();
    t.equal(res.status, 200, path(order.id));
    t.ok(state.durable, `${path(order.id)}: sent only once the buy's batch was durable`);
  }
  t.same(reachedFastify.slice(verified), [], 'both answered at the edge');
});

t.test(
  'a read waiting for a commit that fails is refused with EX_JOURNAL_FAILED, as are later ones',
  async (t) => {
    const { app, service, db } = await exchangeApp(t, {
      register: (app, service) =>
        app.register(exchangeRoutes, { service, tradeLimitPerMinute: 1_000, readLimitPerMinute: 1_000 }),
    });
    await service.deposit('alice', 1_000_000);
    service.submitOrder('alice', buy);
    // The batch holding the buy cannot be written: memory shows an order the journal never had.
    db.close();
    for (const when of ['while its commit fails', 'after']) {
      const res = await app.inject({ method: 'GET', url: '/marketdata/orderBook/L1?symbol=AAPL' });
      t.equal(res.statusCode, 503, when);
      t.match(JSON.parse(res.body), { code: 'EX_JOURNAL_FAILED' }, when);
    }
    t.ok(service.failed);
  },
);
