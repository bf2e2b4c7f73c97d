import t from 'tap';
import { tradeReport } from '../../src/core/trade-report.ts';
import { Desk } from './exchange-rules.ts';

t.test('remaining quantity counts every earlier fill of the order, on any day', async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 100_000);
  desk.deposit('bob', 0, { AAPL: 100 });
  const sell = desk.order('bob', { side: 'sell', price: 90, quantity: 10 }) as number;
  desk.order('alice', { side: 'buy', price: 90, quantity: 3 });
  desk.at += 24 * 3_600_000;
  desk.order('alice', { side: 'buy', price: 90, quantity: 5 });
  const executions = desk.executionsOf('bob');
  const dayOf = (at: number) => desk.manager.clock.at(at).day;
  const orderOf = (id: number) => desk.get(id);
  const first = tradeReport(executions, orderOf, '2026-11-23', dayOf);
  const second = tradeReport(executions, orderOf, '2026-11-24', dayOf);
  t.match(first, [{ orderId: sell, executedQuantity: 3, remainingQuantity: 7, clientId: 'bob' }]);
  t.match(second, [{ orderId: sell, executedQuantity: 5, remainingQuantity: 2 }]);
  t.equal(second.length, 1);
});
