import t from 'tap';
import { holdingOf, type HoldingOwner } from '../../src/core/holding.ts';
import * as wallet from '../../src/core/wallet.ts';

t.test('reserve and release are inverse; settle pays the trade price', async (t) => {
  const b = wallet.emptyBalances();
  const owner: HoldingOwner = { balances: b, exposure: new Map(), holdings: new Map() };
  // MSFT's holding is made before the deposit that gives AAPL shares: both find them.
  const msft = holdingOf(owner, 'MSFT');
  const early = holdingOf(owner, 'AAPL');
  wallet.deposit(b, 1_000, { AAPL: 10 });
  const aapl = holdingOf(owner, 'AAPL');
  t.equal(aapl, early);
  t.equal(wallet.canReserve(b, aapl, 'buy', 100, 10), undefined);
  t.equal(wallet.canReserve(b, aapl, 'buy', 100, 11), 'EX_INSUFFICIENT_FUNDS');
  t.equal(wallet.canReserve(b, aapl, 'sell', 100, 11), 'EX_INSUFFICIENT_SHARES');
  t.equal(wallet.canReserve(b, msft, 'sell', 100, 1), 'EX_INSUFFICIENT_SHARES');
  wallet.reserve(b, aapl, 'buy', 100, 10);
  t.same([b.cash, b.cashReserved], [0, 1_000]);
  wallet.settleBuy(b, aapl, 100, 90, 4);
  t.same([b.cash, b.cashReserved, b.positions.get('AAPL')!.shares], [40, 600, 14]);
  wallet.release(b, aapl, 'buy', 100, 6);
  t.same([b.cash, b.cashReserved], [640, 0]);
  wallet.reserve(b, aapl, 'sell', 90, 14);
  wallet.settleSell(b, aapl, 95, 4);
  wallet.release(b, aapl, 'sell', 90, 10);
  t.same([b.cash, b.positions.get('AAPL')], [640 + 380, { shares: 10, sharesReserved: 0 }]);
});

t.test('deposits', async (t) => {
  t.equal(wallet.checkDeposit(undefined, 1, {}), undefined);
  t.equal(wallet.checkDeposit(undefined, 0, { AAPL: 1 }), undefined);
  t.equal(wallet.checkDeposit(undefined, 0, { AAPL: 0 }), 'EX_INVALID_DEPOSIT');
  t.equal(wallet.checkDeposit(undefined, 0, { AAPL: -1 }), 'EX_INVALID_DEPOSIT');
  t.equal(wallet.checkDeposit(undefined, Number.NaN, {}), 'EX_INVALID_DEPOSIT');
  const b = wallet.emptyBalances();
  wallet.deposit(b, 0, { AAPL: Number.MAX_SAFE_INTEGER });
  t.equal(wallet.checkDeposit(b, 0, { AAPL: 1 }), 'EX_BALANCE_OVERFLOW');
  t.equal(wallet.checkDeposit(b, Number.MAX_SAFE_INTEGER, {}), undefined);
});
