/**
 * The order manager's whole state as JSON, and back. Used for snapshots (restart = the latest
 * snapshot + the journal after it) and for the state digest the recovery tests compare: every map
 * is written in its own iteration order and rebuilt in that order, so a restored state serialises
 * byte for byte like the original.
 *
 * A snapshot is written as parts (`snapshotParts`), each a JSON string of at most `rowsPerPart`
 * orders: a day's state outgrows one string (V8's limit is 512 MiB, reached near 1.6 M commands),
 * and parts are hashed, stored and parsed one at a time. `snapshotState` (one value) remains for
 * tests and for snapshots stored whole before parts existed. Executions and finished orders are
 * not state any more (they are in the journal's store): a snapshot carries their running hash.
 * Those of a snapshot written before (its orders not open, its accounts' executions) are handed
 * to `retiring` on restore, as if they had just left the state, so the next snapshot stores them.
 */
import { createHash } from 'node:crypto';
import { ClientOrderIds } from './client-order-ids.ts';
import { MatchingEngine, type EngineSnapshot } from './engine.ts';
import type { Execution, Order } from './messages.ts';
import type { AccountState } from './account-state.ts';
import { NO_RETIRING, type Retiring } from './leaving-state.ts';
import { OrderManager, type ExchangeRules } from './order-manager.ts';
import { RetiredDigest } from './retired-digest.ts';
import type { Exposure } from './risk.ts';
import { holdingOf } from './holding.ts';
import { boundOpened } from './self-trade.ts';
import { TradeTape } from './trade-tape.ts';
import type { Position } from './wallet.ts';

interface AccountSnapshot {
  readonly id: string;
  readonly cash: number;
  readonly cashReserved: number;
  readonly positions: ReadonlyArray<readonly [string, Position]>;
  readonly exposure: ReadonlyArray<readonly [string, Exposure]>;
  readonly open: readonly number[];
  /** Only in snapshots from before finished orders left the state: dropped on restore. */
  readonly orders?: readonly number[];
  /** Only in snapshots from before executions left the state: dropped on restore. */
  readonly executions?: readonly Execution[];
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
  /** The retired executions' fold: [hash, unfolded lines] (absent in older snapshots). */
  readonly retired?: readonly [string, readonly string[]];
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
    retired: [manager.retired.hash, manager.retired.tail],
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
      killed: a.killed,
      clientOrderIds: [a.clientOrderIds.day, a.clientOrderIds.entries()] as const,
    })),
  };
}

/**
 * Rebuilds the state under `rules` (a symbol added to the configuration since starts empty);
 * what an older snapshot still holds of finished orders and executions goes to `retiring`.
 */
export function restoreState(
  rules: ExchangeRules,
  snapshot: StateSnapshot,
  retiring: Retiring = NO_RETIRING,
): OrderManager {
  if (snapshot.v !== 1) throw new RangeError(`unknown snapshot version ${String(snapshot.v)}`);
  const engines = new Map(snapshot.engines.map((s) => [s.spec.symbol, MatchingEngine.restore(s)]));
  const manager = new OrderManager(rules, engines);
  manager.seq = snapshot.seq;
  manager.lastAt = snapshot.lastAt;
  manager.nextOrderId = snapshot.nextOrderId;
  manager.nextExecutionId = snapshot.nextExecutionId;
  if (snapshot.retired !== undefined)
    manager.retired = RetiredDigest.restore(snapshot.retired[0], snapshot.retired[1]);
  for (const [symbol, at, price, quantity] of snapshot.tapes) {
    const tape = new TradeTape();
    // One push per trade: spreading a long tape into push() would overflow the stack.
    for (let i = 0; i < at.length; i++) tape.record(at[i]!, price[i]!, quantity[i]!);
    manager.tapes.set(symbol, tape);
  }
  for (const order of snapshot.orders) if (order.status === 'new') manager.orders.set(order.id, { ...order });
  manager.retiring = retiring;
  retireOlder(manager, snapshot);
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
      killed: a.killed,
      clientOrderIds:
        a.clientOrderIds === undefined
          ? new ClientOrderIds()
          : ClientOrderIds.restore(a.clientOrderIds[0], a.clientOrderIds[1]),
      holdings: new Map(),
    };
    for (const order of account.open.values()) {
      const holding = holdingOf(account, order.symbol);
      holding.open.add(order);
      boundOpened(holding, order.side, order.price);
    }
    manager.accounts.set(a.id, account);
  }
  return manager;
}

/**
 * A snapshot from before finished orders and executions left the state holds them: they leave
 * now, executions then orders, each in id order (a fixed order, so the digest is the same at
 * every restart from it).
 */
function retireOlder(manager: OrderManager, snapshot: StateSnapshot): void {
  const executions: Execution[] = [];
  for (const a of snapshot.accounts) for (const e of a.executions ?? []) executions.push(e);
  executions.sort((a, b) => a.id - b.id);
  for (const e of executions) {
    manager.retired.add(e);
    manager.retiring.execution(e);
  }
  for (const order of snapshot.orders) {
    if (order.status === 'new') continue;
    manager.retired.add(order);
    manager.retiring.order({ ...order });
  }
}

/** Orders per part: ~2 MB of JSON, far from the string limit, few parts a day. */
export const ROWS_PER_PART = 10_000;

type Head = Omit<StateSnapshot, 'v' | 'engines' | 'tapes' | 'orders' | 'accounts'> & { readonly v: 2 };

/** One part of a snapshot: the head first, then the rest in the order `restoreParts` rebuilds it. */
type SnapshotPart =
  | Head
  | { readonly engine: EngineSnapshot }
  | { readonly tape: StateSnapshot['tapes'][number] }
  | { readonly orders: readonly Order[] }
  | { readonly account: Omit<AccountSnapshot, 'executions'> }
  /** Written by older versions only: read and dropped. */
  | { readonly executions: readonly [string, readonly Execution[]] };

/** The state as JSON parts, none larger than `rowsPerPart` orders. */
export function* snapshotParts(manager: OrderManager, rowsPerPart = ROWS_PER_PART): Generator<string> {
  const { engines, tapes, orders, accounts, ...head } = snapshotState(manager);
  const part = (value: SnapshotPart) => JSON.stringify(value);
  yield part({ ...head, v: 2 });
  for (const engine of engines) yield part({ engine });
  for (const tape of tapes) yield part({ tape });
  for (let i = 0; i < orders.length; i += rowsPerPart)
    yield part({ orders: orders.slice(i, i + rowsPerPart) });
  for (const account of accounts) yield part({ account });
}

/** Rebuilds the state from `snapshotParts`' parts, or from one snapshot stored whole (v 1). */
export function restoreParts(
  rules: ExchangeRules,
  parts: Iterable<string>,
  retiring: Retiring = NO_RETIRING,
): OrderManager {
  let head: Head | undefined;
  const engines: EngineSnapshot[] = [];
  const tapes: Array<StateSnapshot['tapes'][number]> = [];
  const orders: Order[] = [];
  const accounts: AccountSnapshot[] = [];
  const executionsOf = new Map<string, Execution[]>();
  for (const text of parts) {
    const value = JSON.parse(text) as SnapshotPart | StateSnapshot;
    if (head === undefined) {
      if ('v' in value && value.v === 1) return restoreState(rules, value, retiring);
      if (!('v' in value) || value.v !== 2) {
        throw new RangeError(`unknown snapshot version ${String((value as { v?: unknown }).v)}`);
      }
      head = value;
    } else if ('engine' in value) engines.push(value.engine);
    else if ('tape' in value) tapes.push(value.tape);
    // One push per row: spreading a long array into push() would overflow the stack.
    else if ('orders' in value) for (const order of value.orders) orders.push(order);
    else if ('account' in value) {
      const executions: Execution[] = [];
      executionsOf.set(value.account.id, executions);
      accounts.push({ ...value.account, executions });
    } else if ('executions' in value) {
      // Written by older versions only: retired on restore.
      const [account, rows] = value.executions;
      const executions = executionsOf.get(account);
      if (executions === undefined)
        throw new RangeError(`snapshot: executions of unknown account ${account}`);
      for (const row of rows) executions.push(row);
    } else throw new RangeError(`snapshot: unknown part ${text.slice(0, 40)}`);
  }
  if (head === undefined) throw new RangeError('snapshot: no parts');
  return restoreState(rules, { ...head, v: 1, engines, tapes, orders, accounts }, retiring);
}

/**
 * sha256 of the whole state: equal digests mean equal books, orders, wallets and risk counters.
 * Hashed part by part, as a snapshot is written, never as one string.
 */
export function stateDigest(manager: OrderManager): string {
  const hash = createHash('sha256');
  for (const part of snapshotParts(manager)) hash.update(part);
  return hash.digest('hex');
}
