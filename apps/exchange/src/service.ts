/**
 * The trading flow in one process, behind the facade the HTTP routes (and later FIX) call:
 *   1. gateway checks, kill switch, session, risk, self-trade, wallet (OrderManager.check…, pure);
 *   2. the sequencer stamps the command with the next sequence number and its time;
 *   3. the journal writes it (group commit: durable at the end of this turn of the event loop);
 *   4. the order manager applies it: wallet reservation, the engine matches, fills settle;
 *   5. the executions it produced are journaled in the same batch;
 *   6. every SNAPSHOT_EVERY commands a snapshot joins the batch;
 *   7. once the batch is durable, the caller gets its answer and subscribers get the events.
 * Opening replays: the latest snapshot, then every journaled command after it, through the same
 * `apply`, so books, orders, wallets and risk counters come back exactly (stateDigest proves it).
 * Executions and finished orders are not in the state: the journal holds them until the next
 * snapshot stores them, and answers their reads (the order manager keeps the open state).
 * If a commit fails, memory is ahead of the journal: the service refuses everything from then on
 * (EX_JOURNAL_FAILED), and a restart replays what the journal holds.
 */
import type { ProblemError } from '@tessera/kit';
import type { Command, ExchangeEvent, Order, OrderStatus, Side } from './core/messages.ts';
import { OrderManager, type ExchangeRules, type Retiring } from './core/order-manager.ts';
import type { Refusal } from './core/order-checks.ts';
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
import { restoreParts, snapshotParts, stateDigest } from './core/state-snapshot.ts';
import { tradeReport, type TradeReportRow } from './core/trade-report.ts';
import {
  feedUpdates,
  type DurableSnapshot,
  type FeedInterest,
  type FeedUpdates,
  type SymbolSnapshot,
} from './core/feed.ts';
import { FinishedClientIds } from './core/finished-client-ids.ts';
import { SessionClock } from './core/trading-hours.ts';
import { executionView, orderView, type ExecutionView, type OrderView } from './core/views.ts';
import { exchangeError } from './errors.ts';
import { Outbox, type AppliedState, type DurableBatch } from './outbox.ts';
import type { Journal } from './ports.ts';

export interface ExchangeServiceOptions {
  readonly rules: ExchangeRules;
  readonly journal: Journal;
  /** The wall clock, milliseconds since the epoch (tests pass their own). */
  readonly now?: () => number;
  /** Commands between snapshots. */
  readonly snapshotEvery?: number;
  /**
   * A snapshot that could not be taken (the command that reached it stands: it is journaled and
   * applied; a restart replays from the snapshot before). The service logs it.
   */
  readonly onSnapshotFailed?: (seq: number, error: unknown) => void;
}

export interface OrderInput {
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly orderType: string;
  readonly quantity: number;
  /** The client's id of the order (FIX ClOrdID): an order per id per account and trading day. */
  readonly clientOrderId?: string;
}

export { orderView, type ExecutionView, type OrderView };

export interface AccountView {
  readonly account: string;
  readonly cash: { readonly available: number; readonly reserved: number };
  readonly shares: Record<string, { readonly available: number; readonly reserved: number }>;
  readonly killSwitch: boolean;
}

export interface OrderQuery {
  readonly status?: OrderStatus;
  readonly symbol?: string;
  /** The last id of the previous page. */
  readonly after?: number;
  readonly limit?: number;
}

export interface ExecutionQuery {
  readonly symbol?: string;
  readonly orderId?: number;
  readonly startTime?: number;
  readonly endTime?: number;
}

const NO_EVENTS: readonly ExchangeEvent[] = [];

const journalFailed = (): ProblemError =>
  exchangeError('EX_JOURNAL_FAILED', 'the journal failed; the exchange takes no commands until restarted');

const problem = (refusal: Refusal): ProblemError =>
  exchangeError(refusal.code, refusal.detail, refusal.extra);

export class ExchangeService {
  readonly #journal: Journal;
  readonly #now: () => number;
  readonly #snapshotEvery: number;
  readonly #onSnapshotFailed: (seq: number, error: unknown) => void;
  readonly #outbox: Outbox;
  /** What the outbox reads after each command (one object, not one per command). */
  readonly #applied: AppliedState = {
    l1: (symbol) => this.l1(symbol),
    filled: (orderId) => this.#find(orderId)!.filledQuantity,
  };
  #manager: OrderManager;
  #failed: unknown;

  private constructor(options: ExchangeServiceOptions, manager: OrderManager) {
    this.#journal = options.journal;
    this.#now = options.now ?? Date.now;
    this.#snapshotEvery = options.snapshotEvery ?? 1_000_000;
    this.#onSnapshotFailed = options.onSnapshotFailed ?? (() => {});
    this.#manager = manager;
    this.#outbox = new Outbox((error) => {
      this.#failed = error;
    });
  }

  /** Rebuilds the state from the journal (latest snapshot + the commands after it). */
  static open(options: ExchangeServiceOptions): ExchangeService {
    const { journal } = options;
    // What leaves the state during the restore and the replay is journaled already: held only,
    // until the next snapshot stores it.
    const stored = journal.latestSnapshot();
    // Without a snapshot the replay below retires every order that ever finished, through this
    // memory: it knows all their ClOrdIDs. After a snapshot, it is given today's from the store.
    const clock = new SessionClock(options.rules.hours, options.rules.holidays);
    const finished = new FinishedClientIds(
      {
        order: (id) => journal.finishedOrder(id),
        byClientId: (account, clientOrderId) => journal.finishedByClientId(account, clientOrderId),
      },
      (at) => clock.at(at).day,
      stored === undefined,
    );
    const replayed: Retiring = {
      order: (order) => {
        journal.appendFinished(order);
        finished.finished(order);
      },
      execution: (execution) => journal.keepExecution(execution),
    };
    const manager =
      stored === undefined
        ? new OrderManager(options.rules)
        : restoreParts(options.rules, stored.parts, replayed);
    manager.retiring = replayed;
    manager.finished = finished;
    // A replay's events went out when the commands first ran: not built again.
    manager.recordEvents = false;
    journal.replay(manager.seq, (seq, command) => manager.apply(seq, command));
    if (stored !== undefined) {
      // Today is the day of the next command's time (never before the last one's).
      const today = clock.at(Math.max((options.now ?? Date.now)(), manager.lastAt)).day;
      finished.load(
        today,
        journal.finishedClientIdsFrom((at) => clock.at(at).day >= today),
      );
    }
    manager.recordEvents = true;
    manager.retiring = {
      order: (order) => {
        journal.appendFinished(order);
        finished.finished(order);
      },
      execution: (execution) => journal.appendExecution(execution),
    };
    return new ExchangeService(options, manager);
  }

  /** The sequence number of the last command applied. */
  get seq(): number {
    return this.#manager.seq;
  }

  get failed(): boolean {
    return this.#failed !== undefined;
  }

  /**
   * Steps 1–6 for a new order, synchronously: the order after matching (not yet durable: await
   * `durable()` before telling anyone). The benchmark times this; `placeOrder` is the whole flow.
   */
  submitOrder(account: string, input: OrderInput): Order {
    const manager = this.#manager;
    const at = this.#at();
    const refusal = manager.checkNewOrder(account, input, at);
    if (refusal !== undefined) throw problem(refusal);
    const orderId = manager.nextOrderId;
    const { symbol, side, price, quantity, clientOrderId } = input;
    this.#sequence(
      clientOrderId === undefined
        ? { v: 1, type: 'order.new', at, account, orderId, symbol, side, price, quantity }
        : { v: 1, type: 'order.new', at, account, orderId, symbol, side, price, quantity, clientOrderId },
    );
    // The order object itself, open or finished already: no lookup in the journal's held orders.
    const placed = manager.placed;
    return placed?.id === orderId ? placed : this.#find(orderId)!;
  }

  /** Resolves when every command so far is durable (and its events are published). */
  durable(): Promise<void> {
    return this.#journal.commit();
  }

  /**
   * What a read must wait for before it leaves: the state it was taken from may hold commands
   * whose batch is still being written (the writer thread writes one batch while the next is
   * applied), and a crash would lose them. Undefined when everything applied is durable; after a
   * failed commit, memory holds what the journal lost: reads are refused too (EX_JOURNAL_FAILED).
   */
  readsWait(): Promise<void> | undefined {
    if (this.#failed !== undefined) return Promise.reject(journalFailed());
    if (!this.#journal.pending) return undefined;
    return this.#journal.commit().catch(() => {
      throw journalFailed();
    });
  }

  /**
   * The answer is the order as its own command left it, viewed at once: when the batch is durable
   * a later batch (not durable yet) may have changed it in memory, and nobody may hear of that
   * before it is durable.
   */
  async placeOrder(account: string, input: OrderInput): Promise<OrderView> {
    const view = orderView(this.submitOrder(account, input));
    await this.durable();
    return view;
  }

  /** Steps 1–6 for a cancel (see submitOrder). */
  submitCancel(account: string, orderId: number): Order {
    const refusal = this.#manager.checkCancel(account, orderId);
    if (refusal !== undefined) throw problem(refusal);
    // Open (the check passed): the same object once the cancel has finished it.
    const order = this.#manager.orders.get(orderId);
    this.#sequence({ v: 1, type: 'order.cancel', at: this.#at(), account, orderId });
    return order ?? this.#find(orderId)!;
  }

  /** Answers the order as the cancel left it (see placeOrder). */
  async cancelOrder(account: string, orderId: number): Promise<OrderView> {
    const view = orderView(this.submitCancel(account, orderId));
    await this.durable();
    return view;
  }

  /** The order the account placed today under a client order id (FIX ClOrdID), if any. */
  orderByClientId(account: string, clientOrderId: string): Order | undefined {
    return this.#manager.orderByClientId(account, clientOrderId, this.#at());
  }

  /** The id of the account's oldest open order, if any. */
  oldestOpenOrder(account: string): number | undefined {
    return this.#manager.account(account)?.open.keys().next().value;
  }

  /** Cancels the caller's open orders (of one symbol, or all); answers the canceled orders. */
  async cancelAll(account: string, symbol?: string): Promise<OrderView[]> {
    const command: Command = {
      v: 1,
      type: 'orders.cancel-all',
      at: this.#at(),
      account,
      ...(symbol === undefined ? {} : { symbol }),
    };
    // The answer lists the canceled orders: read off the events, built whoever listens.
    const events = this.#sequence(command, true);
    await this.durable();
    return this.#canceledIn(events);
  }

  async setKillSwitch(account: string, on: boolean): Promise<{ killSwitch: boolean; canceled: OrderView[] }> {
    const events = this.#sequence({ v: 1, type: 'account.kill-switch', at: this.#at(), account, on }, true);
    await this.durable();
    return { killSwitch: on, canceled: this.#canceledIn(events) };
  }

  async deposit(
    account: string,
    cash = 0,
    shares: Readonly<Record<string, number>> = {},
  ): Promise<AccountView> {
    const refusal = this.#manager.checkDeposit(account, cash, shares);
    if (refusal !== undefined) throw problem(refusal);
    this.#sequence({ v: 1, type: 'account.deposit', at: this.#at(), account, cash, shares });
    // The account as the deposit left it (see placeOrder): later batches are not durable yet.
    const view = this.account(account);
    await this.durable();
    return view;
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
    const order = this.#find(orderId);
    return order !== undefined && order.account === account ? order : undefined;
  }

  /** An order open (the state) or finished (the journal's store). */
  #find(orderId: number): Order | undefined {
    return this.#manager.orders.get(orderId) ?? this.#journal.finishedOrder(orderId);
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
      (orderId) => this.#find(orderId)!,
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
      order: (orderId: number) => orderView(this.#find(orderId)!),
    };
    return feedUpdates(batch.events, state, interest);
  }

  /**
   * Batches of durable commands' events, in sequence order, a batch per group commit (outbox.ts).
   * While no listener is `active`, commands build no events at all.
   */
  subscribe(listener: (batch: DurableBatch) => void, active?: () => boolean): () => void {
    return this.#outbox.subscribe(listener, active);
  }

  /** sha256 of the whole state (books, orders, wallets, risk counters, tapes). */
  digest(): string {
    return stateDigest(this.#manager);
  }

  async close(): Promise<void> {
    await this.#journal.close();
  }

  #engine(symbol: string) {
    const engine = this.#manager.engines.get(symbol);
    if (engine === undefined) throw exchangeError('EX_UNKNOWN_SYMBOL', `no symbol ${symbol} is traded here`);
    return engine;
  }

  /** The command's time: the clock, but never before the last command (a clock may step back). */
  #at(): number {
    return Math.max(this.#now(), this.#manager.lastAt);
  }

  /**
   * Steps 2–6: sequence, journal, apply, journal the executions, maybe snapshot. The events are
   * built when a listener is active or the caller reads them (`keepEvents`); else none are.
   */
  #sequence(command: Command, keepEvents = false): ExchangeEvent[] {
    if (this.#failed !== undefined) throw journalFailed();
    const manager = this.#manager;
    const seq = manager.seq + 1;
    this.#journal.append(seq, command);
    const listening = this.#outbox.listening;
    // What leaves the state goes to the journal through the manager's `retiring` (open()).
    const { events, refusal } = manager.apply(seq, command, listening || keepEvents);
    if (seq % this.#snapshotEvery === 0) this.#snapshot(seq);
    // Every command, so that each batch's commit is watched; its events only when they are wanted.
    this.#outbox.add(this.#journal.commit(), listening ? events : NO_EVENTS, this.#applied);
    if (refusal !== undefined) throw problem(refusal);
    return events;
  }

  /**
   * A snapshot of the state at `seq`, in parts. One that fails (the disk, memory) must not fail
   * the command that reached it, which is applied already: a restart replays from the one before.
   */
  #snapshot(seq: number): void {
    try {
      this.#journal.saveSnapshot({ seq, parts: [...snapshotParts(this.#manager)] });
    } catch (error) {
      this.#onSnapshotFailed(seq, error);
    }
  }

  #canceledIn(events: readonly ExchangeEvent[]): OrderView[] {
    const views: OrderView[] = [];
    for (const e of events) if (e.type === 'order.canceled') views.push(orderView(e.order));
    return views;
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
