import fc from 'fast-check';
import t from 'tap';
import type { SelfTradeMode } from '../../src/core/self-trade.ts';
import { restoreState, snapshotState, stateDigest } from '../../src/core/state-snapshot.ts';
import { Desk, rules } from './exchange-rules.ts';

/**
 * Model-based: random streams of deposits, orders, cancels, cancel-alls and kill switches go
 * through the order manager as the service drives it; after every step the state must satisfy
 * the wallet's and the order manager's invariants (written out below, from the rules), and a
 * snapshot taken at a random step, restored and fed the rest of the stream must end with the
 * same digest as the straight run. The seed is fixed; PROPERTY_SEED / PROPERTY_RUNS change it.
 */
const SEED = Number(process.env.PROPERTY_SEED ?? 20261123);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const ACCOUNTS = ['a', 'b', 'c'];
const SYMBOLS = ['AAPL', 'MSFT'];

type Step =
  | { kind: 'deposit'; account: string; cash: number; aapl: number; msft: number }
  | { kind: 'order'; account: string; symbol: number; side: 'buy' | 'sell'; price: number; quantity: number }
  | { kind: 'cancel'; account: string; pick: number }
  | { kind: 'cancel-all'; account: string; symbol: number }
  | { kind: 'kill'; account: string; on: boolean }
  | { kind: 'tick'; ms: number };

const account = fc.constantFrom(...ACCOUNTS);
const deposit = fc.record({
  kind: fc.constant('deposit' as const),
  account,
  cash: fc.integer({ min: 0, max: 20_000 }),
  aapl: fc.integer({ min: 0, max: 200 }),
  msft: fc.integer({ min: 0, max: 20 }).map((n) => n * 10),
});
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: deposit },
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      account,
      symbol: fc.integer({ min: 0, max: 1 }),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      price: fc.integer({ min: 18, max: 22 }).map((n) => n * 5),
      quantity: fc.integer({ min: 1, max: 8 }).map((n) => n * 10),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('cancel' as const), account, pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('cancel-all' as const),
      account,
      symbol: fc.integer({ min: -1, max: 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('kill' as const),
      account,
      on: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('tick' as const),
      ms: fc.integer({ min: 0, max: 30 * 3_600_000 }),
    }),
  },
);

function run(desk: Desk, s: Step): void {
  switch (s.kind) {
    case 'deposit':
      desk.deposit(s.account, s.cash, { AAPL: s.aapl, MSFT: s.msft });
      break;
    case 'order':
      desk.order(s.account, {
        symbol: SYMBOLS[s.symbol],
        side: s.side,
        price: s.price,
        quantity: s.quantity,
      });
      break;
    case 'cancel': {
      const ids = desk.placed.get(s.account) ?? [];
      if (ids.length > 0) desk.cancel(s.account, ids[s.pick % ids.length]!);
      break;
    }
    case 'cancel-all':
      desk.apply({
        v: 1,
        type: 'orders.cancel-all',
        at: desk.at,
        account: s.account,
        ...(s.symbol >= 0 ? { symbol: SYMBOLS[s.symbol]! } : {}),
      });
      break;
    case 'kill':
      desk.apply({ v: 1, type: 'account.kill-switch', at: desk.at, account: s.account, on: s.on });
      break;
    case 'tick':
      desk.at += s.ms;
      break;
  }
}

/** Each holding's open orders are its account's open orders in the symbol, oldest first. */
function holdingsBroken(m: Desk['manager']): string | undefined {
  for (const a of m.accounts.values()) {
    for (const symbol of SYMBOLS) {
      const want = [...a.open.values()].filter((o) => o.symbol === symbol).map((o) => o.id);
      const got = (a.holdings.get(symbol)?.open.live() ?? []).map((o) => o.id);
      if (want.join() !== got.join())
        return `${a.id} ${symbol}: holding open [${got.join()}], open [${want.join()}]`;
    }
  }
  return undefined;
}

/** The invariants; returns the first one broken, with the values, or undefined. */
function broken(
  desk: Desk,
  deposited: { cash: number; shares: Map<string, number> },
  selfTrade: SelfTradeMode,
): string | undefined {
  const m = desk.manager;
  const executions = desk.executions;
  let cash = 0;
  const shares = new Map<string, number>();
  for (const a of m.accounts.values()) {
    let cashReserved = 0;
    const sharesReserved = new Map<string, number>();
    const open = new Map<string, number>();
    for (const o of a.open.values()) {
      if (o.side === 'buy') cashReserved += o.price * o.remainingQuantity;
      else sharesReserved.set(o.symbol, (sharesReserved.get(o.symbol) ?? 0) + o.remainingQuantity);
      open.set(o.symbol, (open.get(o.symbol) ?? 0) + o.remainingQuantity);
    }
    const b = a.balances;
    if (b.cashReserved !== cashReserved)
      return `${a.id}: cash reserved ${b.cashReserved}, open buys need ${cashReserved}`;
    if (b.cash < 0) return `${a.id}: negative cash ${b.cash}`;
    cash += b.cash + b.cashReserved;
    for (const symbol of SYMBOLS) {
      const p = b.positions.get(symbol) ?? { shares: 0, sharesReserved: 0 };
      if (p.sharesReserved !== (sharesReserved.get(symbol) ?? 0))
        return `${a.id} ${symbol}: shares reserved ${p.sharesReserved}, open sells ${sharesReserved.get(symbol) ?? 0}`;
      if (p.shares < 0) return `${a.id} ${symbol}: negative shares ${p.shares}`;
      shares.set(symbol, (shares.get(symbol) ?? 0) + p.shares + p.sharesReserved);
      const exposure = a.exposure.get(symbol)?.open ?? 0;
      if (exposure !== (open.get(symbol) ?? 0))
        return `${a.id} ${symbol}: exposure open ${exposure}, open orders ${open.get(symbol) ?? 0}`;
    }
    const filled = new Map<number, number>();
    for (const e of executions)
      if (e.account === a.id) filled.set(e.orderId, (filled.get(e.orderId) ?? 0) + e.quantity);
    for (const id of desk.placed.get(a.id) ?? []) {
      const o = desk.get(id);
      if (m.orders.has(id) !== (o.status === 'new'))
        return `order ${id}: ${o.status}, in the state ${m.orders.has(id)}`;
      if (o.filledQuantity + o.remainingQuantity !== o.quantity)
        return `order ${id}: filled + remaining != quantity`;
      if ((filled.get(id) ?? 0) !== o.filledQuantity)
        return `order ${id}: executions sum ${filled.get(id) ?? 0}, filled ${o.filledQuantity}`;
      const inBook = m.engines.get(o.symbol)!.book.has(id);
      if (inBook !== (o.status === 'new') || inBook !== a.open.has(id))
        return `order ${id}: status ${o.status}, in book ${inBook}, open ${a.open.has(id)}`;
    }
  }
  if (cash !== deposited.cash) return `cash not conserved: ${cash} held, ${deposited.cash} deposited`;
  for (const symbol of SYMBOLS) {
    if ((shares.get(symbol) ?? 0) !== (deposited.shares.get(symbol) ?? 0))
      return `${symbol} shares not conserved`;
  }
  const holdings = holdingsBroken(m);
  if (holdings !== undefined) return holdings;
  for (const engine of m.engines.values()) {
    if (engine.book.bestBid() >= engine.book.bestAsk()) return `${engine.spec.symbol}: crossed book`;
  }
  if (selfTrade !== 'allow') {
    for (const a of m.accounts.values()) {
      for (const e of executions) {
        if (e.account === a.id && desk.get(e.counterOrderId).account === a.id)
          return `self-trade: execution ${e.id} of ${a.id}`;
      }
    }
  }
  return undefined;
}

for (const selfTrade of ['cancel-resting', 'cancel-incoming', 'allow'] as const) {
  t.test(
    `invariants hold after every step, and restore + replay equals the straight run (${selfTrade})`,
    async (t) => {
      const r = rules({ selfTrade, limits: { dailyCap: 400, maxQuantity: 10_000, maxNotional: 2_000_000 } });
      fc.assert(
        fc.property(
          fc.array(deposit, { minLength: 3, maxLength: 3 }),
          fc.array(step, { minLength: 1, maxLength: 150, size: 'max' }),
          fc.nat(),
          (deposits, rest, cut) => {
            const steps = [...deposits.map((d, i) => ({ ...d, account: ACCOUNTS[i]! })), ...rest];
            const desk = new Desk(r);
            const deposited = { cash: 0, shares: new Map<string, number>() };
            const at = cut % steps.length;
            let restored: Desk | undefined;
            for (const [i, s] of steps.entries()) {
              if (i === at) {
                const copy = desk.restored(
                  restoreState(r, JSON.parse(JSON.stringify(snapshotState(desk.manager))) as never),
                );
                if (stateDigest(copy.manager) !== stateDigest(desk.manager))
                  throw new Error(`restored state differs at step ${i}`);
                restored = copy;
              }
              run(desk, s);
              if (restored !== undefined) run(restored, s);
              if (
                s.kind === 'deposit' &&
                desk.manager.account(s.account) !== undefined &&
                !(s.cash === 0 && s.aapl === 0 && s.msft === 0)
              ) {
                deposited.cash += s.cash;
                deposited.shares.set('AAPL', (deposited.shares.get('AAPL') ?? 0) + s.aapl);
                deposited.shares.set('MSFT', (deposited.shares.get('MSFT') ?? 0) + s.msft);
              }
              const problem = broken(desk, deposited, selfTrade);
              if (problem !== undefined)
                throw new Error(`after step ${i} (${JSON.stringify(s)}): ${problem}`);
              const restoredProblem = restored === undefined ? undefined : holdingsBroken(restored.manager);
              if (restoredProblem !== undefined)
                throw new Error(`restored, after step ${i}: ${restoredProblem}`);
            }
            if (stateDigest(restored!.manager) !== stateDigest(desk.manager))
              throw new Error(`restored at ${at}: digests differ at the end`);
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
      t.pass(`${RUNS} streams, seed ${SEED}`);
    },
  );
}
