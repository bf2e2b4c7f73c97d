import t from 'tap';
import { checkRisk, emptyExposure, filledOn, recordFill } from '../../src/core/risk.ts';

const limits = { dailyCap: 100, maxQuantity: 50, maxNotional: 1_000 };

t.test('each limit, at and past its edge', async (t) => {
  t.equal(checkRisk(limits, undefined, 'd1', 20, 50), undefined);
  t.equal(checkRisk(limits, undefined, 'd1', 1, 51), 'EX_RISK_MAX_ORDER_SIZE');
  t.equal(checkRisk(limits, undefined, 'd1', 21, 48), 'EX_RISK_MAX_NOTIONAL');
  const e = emptyExposure();
  e.open = 60;
  t.equal(checkRisk(limits, e, 'd1', 1, 40), undefined);
  t.equal(checkRisk(limits, e, 'd1', 1, 41), 'EX_RISK_DAILY_CAP');
});

t.test('fills count on their trading day; a new day starts from zero filled', async (t) => {
  const e = emptyExposure();
  e.open = 70;
  recordFill(e, 'd1', 30);
  t.same(e, { day: 'd1', filledToday: 30, open: 40 });
  t.equal(filledOn(e, 'd1'), 30);
  t.equal(checkRisk(limits, e, 'd1', 1, 31), 'EX_RISK_DAILY_CAP');
  t.equal(filledOn(e, 'd2'), 0);
  t.equal(checkRisk(limits, e, 'd2', 1, 50), undefined);
  recordFill(e, 'd2', 10);
  t.same(e, { day: 'd2', filledToday: 10, open: 30 });
});
