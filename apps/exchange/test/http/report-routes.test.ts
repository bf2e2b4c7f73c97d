import t, { type Test } from 'tap';
import { reportRoutes } from '../../src/http/report-routes.ts';
import { exchangeApp } from './exchange-app.ts';

const DAY = '2026-11-23';
const order = (side: 'buy' | 'sell', price: number, quantity: number) => ({
  symbol: 'AAPL',
  side,
  price,
  orderType: 'limit',
  quantity,
});

async function start(t: Test) {
  const { app, service, token } = await exchangeApp(t, {
    register: (app, service) => app.register(reportRoutes, { service, limitPerMinute: 1_000 }),
  });
  const get = async (sub: string, scopes: string[], url: string, accept?: string) => {
    const bearer = await token(sub, ...scopes);
    return app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${bearer}`, ...(accept === undefined ? {} : { accept }) },
    });
  };
  return { service, get };
}

t.test('a trade report: the caller own executions with the report fields, as JSON or CSV', async (t) => {
  const { service, get } = await start(t);
  await service.deposit('alice', 100_000);
  await service.deposit('bob', 0, { AAPL: 100 });
  const sell = await service.placeOrder('bob', order('sell', 90, 10));
  const buy = await service.placeOrder('alice', order('buy', 95, 4));
  await service.placeOrder('alice', order('buy', 91, 2));

  const json = await get('bob', ['trade'], `/v1/reports/trades?date=${DAY}`);
  t.equal(json.statusCode, 200);
  t.match(json.headers['content-type'], /application\/json/);
  const body = json.json<{ account: string; data: Array<Record<string, unknown>> }>();
  t.equal(body.account, 'bob');
  t.match(body.data, [
    {
      orderId: sell.id,
      clientId: 'bob',
      side: 'sell',
      orderType: 'limit',
      limitPrice: 90,
      quantity: 10,
      price: 90,
      executedQuantity: 4,
      remainingQuantity: 6,
    },
    { orderId: sell.id, clientId: 'bob', price: 90, executedQuantity: 2, remainingQuantity: 4 },
  ]);

  const alice = (await get('alice', ['trade'], `/v1/reports/trades?date=${DAY}`)).json<{ data: unknown[] }>();
  t.match(alice.data, [
    { orderId: buy.id, clientId: 'alice', side: 'buy', limitPrice: 95, price: 90, remainingQuantity: 0 },
    {},
  ]);
  t.equal(alice.data.length, 2, "alice's own only");

  for (const [url, accept] of [
    [`/v1/reports/trades?date=${DAY}&format=csv`, undefined],
    [`/v1/reports/trades?date=${DAY}`, 'text/csv'],
  ] as const) {
    const csv = await get('bob', ['trade'], url, accept);
    t.equal(csv.statusCode, 200, url);
    t.match(csv.headers['content-type'], /^text\/csv/);
    const lines = csv.body.trimEnd().split('\r\n');
    t.equal(
      lines[0],
      'timestamp,executionId,orderId,clientId,symbol,side,orderType,limitPrice,quantity,price,executedQuantity,remainingQuantity',
    );
    t.equal(lines.length, 3);
    t.match(lines[1], new RegExp(`^\\d+,\\d+,${sell.id},bob,AAPL,sell,limit,90,10,90,4,6$`));
  }

  const other = (await get('bob', ['trade'], `/v1/reports/trades?date=2026-11-24`)).json<{
    data: unknown[];
  }>();
  t.same(other.data, [], 'another day has none');
});

t.test("another account's report needs the admin scope", async (t) => {
  const { service, get } = await start(t);
  await service.deposit('alice', 100_000);
  await service.deposit('bob', 0, { AAPL: 100 });
  await service.placeOrder('bob', order('sell', 90, 10));
  await service.placeOrder('alice', order('buy', 95, 4));
  const refused = await get('alice', ['trade'], `/v1/reports/trades?date=${DAY}&account=bob`);
  t.equal(refused.statusCode, 403);
  t.match(refused.json(), { code: 'KIT_FORBIDDEN', required_scope: 'admin' });
  const admin = await get('ops', ['trade', 'admin'], `/v1/reports/trades?date=${DAY}&account=bob`);
  t.equal(admin.statusCode, 200);
  t.match(admin.json(), { account: 'bob', data: [{ clientId: 'bob', executedQuantity: 4 }] });
  t.equal((await get('bob', ['trade'], '/v1/reports/trades?date=23-11-2026')).statusCode, 400);
  t.equal((await get('bob', ['trade'], '/v1/reports/trades')).statusCode, 400);
});
