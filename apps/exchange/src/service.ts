/**
 * The trading flow in one process, behind the facade the HTTP routes (and later FIX) call:
 *   1. gateway checks, kill switch, session, risk, self-trade, wallet (OrderManager.check…, pure);
 *   2. the sequencer stamps the command with the next sequence number and its time;
 *   3. the journal writes it (group commit: durable at the end of this turn of the event loop);
 *   4. the order manager applies it: wallet reservation, the engine matches, fills settle;
 *   5. the executions it produced are journaled in the same batch;
 *   6. every SNAPSHOT_EVERY commands a snapshot joins the batch;
 *   7. once the batch is durable, the caller gets its answer and subscribers get the events.
 * Opening replays the journal (service-open.ts); the reads are service-reads.ts's. Executions and
 * finished orders are not in the state: the journal holds them until the next snapshot stores
 * them, and answers their reads (the order manager keeps the open state).
 * If a commit fails, memory is ahead of the journal: the service refuses everything from then on
 * (EX_JOURNAL_FAILED), and a restart replays what the journal holds.
 */
import type { ProblemError } from '@tessera/kit';
import type { Command, ExchangeEvent, Order } from './core/messages.ts';
import type { OrderManager } from './core/order-manager.ts';
import type { Journal } from './ports.ts';
import type { Refusal } from './core/order-checks.ts';
import { snapshotParts } from './core/state-snapshot.ts';
import { orderView, type ExecutionView, type OrderView } from './core/views.ts';
import { exchangeError } from './errors.ts';
import { Outbox, type AppliedState, type DurableBatch } from './outbox.ts';
import { openManager } from './service-open.ts';
import { commandTime, ExchangeReads, findOrder, journalFailed, type ReadSource } from './service-reads.ts';
import type { AccountView, ExchangeServiceOptions, OrderInput } from './service-types.ts';

export { orderView, type ExecutionView, type OrderView };
export type {
  AccountView,
  ExchangeServiceOptions,
  ExecutionQuery,
  OrderInput,
  OrderQuery,
} from './service-types.ts';

const NO_EVENTS: readonly ExchangeEvent[] = [];

const problem = (refusal: Refusal): ProblemError =>
  exchangeError(refusal.code, refusal.detail, refusal.extra);

export class ExchangeService extends ExchangeReads {
  /** The journal, state and clock the reads share (service-reads.ts); the commands write them. */
  readonly #source: ReadSource;
  readonly #journal: Journal;
  readonly #manager: OrderManager;
  readonly #snapshotEvery: number;
  readonly #onSnapshotFailed: (seq: number, error: unknown) => void;
  readonly #outbox: Outbox;
  /** What the outbox reads after each command (one object, not one per command). */
  readonly #applied: AppliedState = {
    l1: (symbol) => this.l1(symbol),
    filled: (orderId) => findOrder(this.#source, orderId)!.filledQuantity,
  };

  private constructor(options: ExchangeServiceOptions, manager: OrderManager) {
    const source: ReadSource = {
      journal: options.journal,
      manager,
      now: options.now ?? Date.now,
      commits: {},
    };
    super(source);
    this.#source = source;
    this.#journal = source.journal;
    this.#manager = manager;
    this.#snapshotEvery = options.snapshotEvery ?? 1_000_000;
    this.#onSnapshotFailed = options.onSnapshotFailed ?? (() => {});
    this.#outbox = new Outbox((error) => {
      source.commits.failure = error;
    });
  }

  /** Rebuilds the state from the journal (latest snapshot + the commands after it). */
  static open(options: ExchangeServiceOptions): ExchangeService {
    return new ExchangeService(options, openManager(options));
  }

  /**
   * Steps 1–6 for a new order, synchronously: the order after matching (not yet durable: await
   * `durable()` before telling anyone). The benchmark times this; `placeOrder` is the whole flow.
   */
  submitOrder(account: string, input: OrderInput): Order {
    const manager = this.#manager;
    const at = commandTime(this.#source);
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
    return placed?.id === orderId ? placed : findOrder(this.#source, orderId)!;
  }

  /** Resolves when every command so far is durable (and its events are published). */
  durable(): Promise<void> {
    return this.#journal.commit();
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
    this.#sequence({ v: 1, type: 'order.cancel', at: commandTime(this.#source), account, orderId });
    return order ?? findOrder(this.#source, orderId)!;
  }

  /** Answers the order as the cancel left it (see placeOrder). */
  async cancelOrder(account: string, orderId: number): Promise<OrderView> {
    const view = orderView(this.submitCancel(account, orderId));
    await this.durable();
    return view;
  }

  /** Cancels the caller's open orders (of one symbol, or all); answers the canceled orders. */
  async cancelAll(account: string, symbol?: string): Promise<OrderView[]> {
    const command: Command = {
      v: 1,
      type: 'orders.cancel-all',
      at: commandTime(this.#source),
      account,
      ...(symbol === undefined ? {} : { symbol }),
    };
    // The answer lists the canceled orders: read off the events, built whoever listens.
    const events = this.#sequence(command, true);
    await this.durable();
    return this.#canceledIn(events);
  }

  async setKillSwitch(account: string, on: boolean): Promise<{ killSwitch: boolean; canceled: OrderView[] }> {
    const events = this.#sequence(
      { v: 1, type: 'account.kill-switch', at: commandTime(this.#source), account, on },
      true,
    );
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
    this.#sequence({ v: 1, type: 'account.deposit', at: commandTime(this.#source), account, cash, shares });
    // The account as the deposit left it (see placeOrder): later batches are not durable yet.
    const view = this.account(account);
    await this.durable();
    return view;
  }

  /**
   * Batches of durable commands' events, in sequence order, a batch per group commit (outbox.ts).
   * While no listener is `active`, commands build no events at all.
   */
  subscribe(listener: (batch: DurableBatch) => void, active?: () => boolean): () => void {
    return this.#outbox.subscribe(listener, active);
  }

  async close(): Promise<void> {
    await this.#journal.close();
  }

  /**
   * Steps 2–6: sequence, journal, apply, journal the executions, maybe snapshot. The events are
   * built when a listener is active or the caller reads them (`keepEvents`); else none are.
   */
  #sequence(command: Command, keepEvents = false): ExchangeEvent[] {
    if (this.#source.commits.failure !== undefined) throw journalFailed();
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
