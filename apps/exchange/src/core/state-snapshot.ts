/**
 * The order manager's whole state as one JSON value, and back. Used for snapshots (restart =
 * the latest snapshot + the journal after it) and for the state digest the recovery tests
 * compare: every map is written in its own iteration order and rebuilt in that order, so a
 * restored state serialises byte for byte like the original.
 */
import { createHash } from 'node:crypto';
import { ClientOrderIds } from './client-order-ids.ts';
import { MatchingEngine, type EngineSnapshot } from './engine.ts';
import type { Execution, Order } from './messages.ts';
import { OrderManager, type AccountState, type ExchangeRules } from './order-manager.ts';
import type { Exposure } from './risk.ts';
import { CrossingBounds } from './self-trade.ts';
import { TradeTape } from './trade-tape.ts';
import type { Position } from './wallet.ts';

interface AccountSnapshot {
  readonly id: string;
  readonly cash: number;
  readonly cashReserved: number;
  readonly positions: ReadonlyArray<readonly [string, Position]>;
  readonly exposure: ReadonlyArray<readonly [string, Exposure]>;
  readonly open: readonly number[];
  readonly orders: readonly number[];
  readonly executions: readonly Execution[];
  readonly killed: boolean;
  /** Today's client order ids: [day, [[clientOrderId, orderId]…]] (absent in older snapshots). */
  readonly clientOrderIds?: readonly [string, ReadonlyArray<readonly [string, number]>];
}

export interface StateSnapshot {
  readonly v: 1;
  readonly seq: number;
  readonly lastAt: number;
  readonly nextOrderId: number;
  readonly nextExecutionId: number;
  readonly engines: readonly EngineSnapshot[];
  readonly tapes: ReadonlyArray<readonly [string, readonly number[], readonly number[], readonly number[]]>;
  readonly orders: readonly Order[];
  readonly accounts: readonly AccountSnapshot[];
}

export function snapshotState(manager: OrderManager): StateSnapshot {
  return {
    v: 1,
    seq: manager.seq,
    lastAt: manager.lastAt,
    nextOrderId: manager.nextOrderId,
    nextExecutionId: manager.nextExecutionId,
    engines: [...manager.engines.values()].map((engine) => engine.snapshot()),
    tapes: [...manager.tapes].map(([symbol, tape]) => [symbol, tape.at, tape.price, tape.quantity] as const),
    orders: [...manager.orders.values()],
    accounts: [...manager.accounts.values()].map((a) => ({
      id: a.id,
      cash: a.balances.cash,
      cashReserved: a.balances.cashReserved,
      positions: [...a.balances.positions],
      exposure: [...a.exposure],
      open: [...a.open.keys()],
      orders: a.orders,
      executions: a.executions,
      killed: a.killed,
      clientOrderIds: [a.clientOrderIds.day, a.clientOrderIds.entries()] as const,
    })),
  };
}

/** Rebuilds the state under `rules` (a symbol added to the configuration since starts empty). */
export function restoreState(rules: ExchangeRules, snapshot: StateSnapshot): OrderManager {
  if (snapshot.v !== 1) throw new RangeError(`unknown snapshot version ${String(snapshot.v)}`);
  const engines = new Map(snapshot.engines.map((s) => [s.spec.symbol, MatchingEngine.restore(s)]));
  const manager = new OrderManager(rules, engines);
  manager.seq = snapshot.seq;
  manager.lastAt = snapshot.lastAt;
  manager.nextOrderId = snapshot.nextOrderId;
  manager.nextExecutionId = snapshot.nextExecutionId;
  for (const [symbol, at, price, quantity] of snapshot.tapes) {
    const tape = new TradeTape();
    // One push per trade: spreading a long tape into push() would overflow the stack.
    for (let i = 0; i < at.length; i++) tape.record(at[i]!, price[i]!, quantity[i]!);
    manager.tapes.set(symbol, tape);
  }
  for (const order of snapshot.orders) manager.orders.set(order.id, { ...order });
  for (const a of snapshot.accounts) {
    const account: AccountState = {
      id: a.id,
      balances: {
        cash: a.cash,
        cashReserved: a.cashReserved,
        positions: new Map(a.positions.map(([s, p]) => [s, { ...p }])),
      },
      exposure: new Map(a.exposure.map(([s, e]) => [s, { ...e }])),
      open: new Map(a.open.map((id) => [id, manager.orders.get(id)!])),
      orders: [...a.orders],
      executions: [...a.executions],
      killed: a.killed,
      clientOrderIds:
        a.clientOrderIds === undefined
          ? new ClientOrderIds()
          : ClientOrderIds.restore(a.clientOrderIds[0], a.clientOrderIds[1]),
      bounds: new CrossingBounds(),
    };
    for (const order of account.open.values()) account.bounds.opened(order.symbol, order.side, order.price);
    manager.accounts.set(a.id, account);
  }
  return manager;
}

/** Orders hashed per chunk: the whole state as one string passes V8's string limit (512 MB) near 10 M orders. */
const DIGEST_CHUNK = 10_000;

/**
 * sha256 of the whole state: equal digests mean equal books, orders, wallets and risk counters.
 * Hashed part by part (the snapshot's fields in order, the orders in chunks), never as one string.
 */
export function stateDigest(manager: OrderManager): string {
  const hash = createHash('sha256');
  const { orders, accounts, ...rest } = snapshotState(manager);
  hash.update(JSON.stringify(rest));
  for (let i = 0; i < orders.length; i += DIGEST_CHUNK) {
    hash.update(JSON.stringify(orders.slice(i, i + DIGEST_CHUNK)));
  }
  for (const account of accounts) hash.update(JSON.stringify(account));
  return hash.digest('hex');
}
