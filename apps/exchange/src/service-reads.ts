/**
 * ExchangeService's reads (service.ts holds its commands and wiring): orders, executions,
 * accounts, trade reports, market data and the WebSocket feed's snapshots and updates. Open orders
 * come from the state; executions and finished orders from the journal, which holds them until the
 * next snapshot stores them (the order manager keeps the open state only).
 */
import type { ProblemError } from '@tessera/kit';
import type { Order } from './core/messages.ts';
import type { OrderManager } from './core/order-manager.ts';
import {
  candles,
  level1,
  level2,
  level3,
  type Candle,
  type L1,
  type L2,
  type L3,
} from './core/market-data.ts';
import { stateDigest } from './core/state-snapshot.ts';
import { tradeReport, type TradeReportRow } from './core/trade-report.ts';
import {
  feedUpdates,
  type DurableSnapshot,
  type FeedInterest,
  type FeedUpdates,
  type SymbolSnapshot,
} from './core/feed.ts';
import { executionView, orderView, type ExecutionView, type OrderView } from './core/views.ts';
import { exchangeError } from './errors.ts';
import type { DurableBatch } from './outbox.ts';
import type { Journal } from './ports.ts';
import type { AccountView, ExecutionQuery, OrderQuery } from './service-types.ts';

export const journalFailed = (): ProblemError =>
  exchangeError('EX_JOURNAL_FAILED', 'the journal failed; the exchange takes no commands until restarted');

/**
 * What the reads are built on, given by the service that owns them (service.ts), which writes
 * through the same journal and state: the reads keep it private.
 */
export interface ReadSource {
  readonly journal: Journal;
  readonly manager: OrderManager;
  readonly now: () => number;
  /** Set by the service when a commit fails: memory is ahead of the journal from then on. */
  readonly commits: { failure?: unknown };
}

/** An order open (the state) or finished (the journal's store). */
export function findOrder(source: ReadSource, orderId: number): Order | undefined {
  return source.manager.orders.get(orderId) ?? source.journal.finishedOrder(orderId);
}

/** The command's time: the clock, but never before the last command (a clock may step back). */
export function commandTime(source: ReadSource): number {
  return Math.max(source.now(), source.manager.lastAt);
}

export abstract class ExchangeReads {
  readonly #source: ReadSource;
  readonly #journal: Journal;
  readonly #manager: OrderManager;

  protected constructor(source: ReadSource) {
    this.#source = source;
    this.#journal = source.journal;
    this.#manager = source.manager;
  }

  /** The sequence number of the last command applied. */
  get seq(): number {
    return this.#manager.seq;
  }

  get failed(): boolean {
    return this.#source.commits.failure !== undefined;
  }

  /**
   * What a read must wait for before it leaves: the state it was taken from may hold commands
   * whose batch is still being written (the writer thread writes one batch while the next is
   * applied), and a crash would lose them. Undefined when everything applied is durable; after a
   * failed commit, memory holds what the journal lost: reads are refused too (EX_JOURNAL_FAILED).
   */
  readsWait(): Promise<void> | undefined {
    if (this.#source.commits.failure !== undefined) return Promise.reject(journalFailed());
    if (!this.#journal.pending) return undefined;
    return this.#journal.commit().catch(() => {
      throw journalFailed();
    });
  }

  /** The order the account placed today under a client order id (FIX ClOrdID), if any. */
  orderByClientId(account: string, clientOrderId: string): Order | undefined {
    return this.#manager.orderByClientId(account, clientOrderId, commandTime(this.#source));
  }

  /** The id of the account's oldest open order, if any. */
  oldestOpenOrder(account: string): number | undefined {
    return this.#manager.account(account)?.open.keys().next().value;
  }

  order(account: string, orderId: number): OrderView {
    const order = this.#own(account, orderId);
    if (order === undefined) throw exchangeError('EX_ORDER_NOT_FOUND', `you have no order ${orderId}`);
    return orderView(order);
  }

  /**
   * The account's order as it stands, or undefined where `order` answers EX_ORDER_NOT_FOUND
   * (none, or another account's): the edge's read, without a copy or a throw. Read it at once.
   */
  ownOrder(account: string, orderId: number): Readonly<Order> | undefined {
    return this.#own(account, orderId);
  }

  #own(account: string, orderId: number): Order | undefined {
    const order = findOrder(this.#source, orderId);
    return order !== undefined && order.account === account ? order : undefined;
  }

  /**
   * The caller's orders, oldest first, a page at a time (`next_cursor` is the `after` of the next
   * page, given when the page is full and the account has any order after it): the open ones
   * from the state merged with the finished ones from the journal's store.
   */
  orders(account: string, query: OrderQuery = {}): { data: OrderView[]; next_cursor: number | null } {
    const open = this.#manager.account(account)?.open;
    const limit = query.limit ?? 100;
    const after = query.after ?? Number.MIN_SAFE_INTEGER;
    const { status, symbol } = query;
    const opened: Order[] = [];
    if (open !== undefined && (status === undefined || status === 'new')) {
      for (const order of open.values()) {
        if (opened.length === limit) break;
        if (order.id > after && (symbol === undefined || order.symbol === symbol)) opened.push(order);
      }
    }
    const finished =
      status === 'new'
        ? []
        : this.#journal.finishedOrders(account, {
            after,
            limit,
            ...(status === undefined ? {} : { status }),
            ...(symbol === undefined ? {} : { symbol }),
          });
    const data = mergeById(opened, finished, limit).map(orderView);
    const last = data[data.length - 1]?.id;
    const more =
      last !== undefined &&
      data.length === limit &&
      (anyAbove(open, last) || this.#journal.hasFinishedAfter(account, last));
    return { data, next_cursor: more ? last : null };
  }

  executions(account: string, query: ExecutionQuery = {}): { executions: ExecutionView[] } {
    const executions = this.#journal
      .executionsOf(account, query.orderId)
      .filter(
        (e) =>
          (query.symbol === undefined || e.symbol === query.symbol) &&
          (query.startTime === undefined || e.at >= query.startTime) &&
          (query.endTime === undefined || e.at < query.endTime),
      )
      .map(executionView);
    return { executions };
  }

  /** The account's trade report for a trading day (YYYY-MM-DD in the session's time zone). */
  tradeReport(account: string, day: string): TradeReportRow[] {
    const manager = this.#manager;
    return tradeReport(
      this.#journal.executionsOf(account),
      (orderId) => findOrder(this.#source, orderId)!,
      day,
      (at) => manager.clock.at(at).day,
    );
  }

  account(account: string): AccountView {
    const state = this.#manager.account(account);
    const shares: AccountView['shares'] = {};
    for (const [symbol, p] of state?.balances.positions ?? []) {
      shares[symbol] = { available: p.shares, reserved: p.sharesReserved };
    }
    return {
      account,
      cash: { available: state?.balances.cash ?? 0, reserved: state?.balances.cashReserved ?? 0 },
      shares,
      killSwitch: state?.killed ?? false,
    };
  }

  symbols(): string[] {
    return [...this.#manager.engines.keys()];
  }

  l1(symbol: string): L1 {
    return level1(this.#engine(symbol).book);
  }

  l2(symbol: string, depth: number): L2 {
    return level2(this.#engine(symbol).book, depth);
  }

  l3(symbol: string, depth: number): L3 {
    return level3(this.#engine(symbol).book, depth);
  }

  candles(symbol: string, resolution: number, startTime: number, endTime: number): { candles: Candle[] } {
    this.#engine(symbol);
    return { candles: candles(this.#manager.tapes.get(symbol)!, resolution, startTime, endTime) };
  }

  /**
   * The WebSocket feed's snapshot of a symbol: its whole book as of the last command applied, and
   * the group commit that makes that command durable (the snapshot is sent only once it is).
   */
  feedSnapshot(symbol: string): DurableSnapshot {
    const book = this.#engine(symbol).book;
    const snapshot: SymbolSnapshot = {
      type: 'snapshot',
      symbol,
      seq: this.seq,
      l1: level1(book),
      ...level2(book, Infinity),
    };
    return { snapshot, durable: this.#journal.commit() };
  }

  /**
   * The WebSocket feed's updates for a durable batch (read against the state as of the batch), of
   * the symbols and accounts `interest` wants (all by default).
   */
  feedUpdates(batch: DurableBatch, interest?: FeedInterest): FeedUpdates {
    const state = {
      // Taken for every symbol an md update is made for (outbox.ts).
      l1: (symbol: string) => batch.l1.get(symbol)!,
      // A completed or canceled order is final: as it is now, it was then.
      order: (orderId: number) => orderView(findOrder(this.#source, orderId)!),
    };
    return feedUpdates(batch.events, state, interest);
  }

  /** sha256 of the whole state (books, orders, wallets, risk counters, tapes). */
  digest(): string {
    return stateDigest(this.#manager);
  }

  #engine(symbol: string) {
    const engine = this.#manager.engines.get(symbol);
    if (engine === undefined) throw exchangeError('EX_UNKNOWN_SYMBOL', `no symbol ${symbol} is traded here`);
    return engine;
  }
}

/** The first `limit` orders of two runs in id order, in id order. */
function mergeById(a: readonly Order[], b: readonly Order[], limit: number): Order[] {
  const merged: Order[] = [];
  let i = 0;
  let j = 0;
  while (merged.length < limit && (i < a.length || j < b.length)) {
    if (j === b.length || (i < a.length && a[i]!.id < b[j]!.id)) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}

function anyAbove(open: ReadonlyMap<number, Order> | undefined, id: number): boolean {
  if (open !== undefined) for (const key of open.keys()) if (key > id) return true;
  return false;
}
