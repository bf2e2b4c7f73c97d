/**
 * The order manager with the engines it feeds: the exchange's whole state as one deterministic
 * state machine. The pipeline asks it to `check…` a request (command-checks.ts: pure, nothing
 * changed), then stamps the command with the next sequence number, journals it, and `apply`s it.
 * `apply` changes state and returns events; applying the journal in order rebuilds the same
 * state exactly.
 *
 * State per account (account-state.ts): balances (wallet.ts), exposure per symbol (risk.ts), open
 * orders and their client order ids; per account and symbol a holding (holding.ts) finds the
 * position, exposure, open orders and self-trade bounds with one lookup. Per symbol: the matching
 * engine and the trade tape. Executions, and orders once filled or canceled, leave the state as
 * they happen (leaving-state.ts: the journal's store keeps them, and the checks ask it through
 * `finished`), handed to `retiring` and folded into `retired`, so the state digest still covers
 * them.
 */
import { newAccount, type AccountState } from './account-state.ts';
import { MSG_CANCEL, MSG_NEW, SIDE_BUY, SIDE_SELL } from './codes.ts';
import { readOutput, type Batch } from './engine-output.ts';
import { MatchingEngine } from './engine.ts';
import type {
  CancelAll,
  CancelOrder,
  CancelReason,
  Command,
  Deposit,
  ExchangeEvent,
  KillSwitch,
  NewOrder,
  Order,
  Side,
} from './messages.ts';
import { checkCancel, checkDeposit, checkNewOrder, finishedOnDay } from './command-checks.ts';
import type { OrderRequest, Refusal } from './order-checks.ts';
import { exposureIn, holdingOf } from './holding.ts';
import type { RiskLimits } from './risk.ts';
import { NO_FINISHED, NO_RETIRING, type FinishedOrders, type Retiring } from './leaving-state.ts';
import { RetiredDigest } from './retired-digest.ts';
import { boundOpened, selfCrossing, type SelfTradeMode } from './self-trade.ts';
import type { SymbolSpec } from './symbol-spec.ts';
import { TradeTape } from './trade-tape.ts';
import { SessionClock, type TradingHours } from './trading-hours.ts';
import * as wallet from './wallet.ts';

export interface ExchangeRules {
  readonly symbols: readonly SymbolSpec[];
  readonly limits: RiskLimits;
  readonly hours: TradingHours;
  readonly holidays: readonly string[];
  readonly selfTrade: SelfTradeMode;
}

export interface Applied {
  readonly events: ExchangeEvent[];
  /** Set when the command was refused while being applied (the engine's own checks). */
  readonly refusal?: Refusal;
}

const sideCode = (side: Side): 0 | 1 => (side === 'buy' ? SIDE_BUY : SIDE_SELL);

/** The events of a command applied without recording: one empty list (frozen: a push is a bug). */
const NO_EVENTS = Object.freeze([]) as unknown as ExchangeEvent[];
/** What `apply` returns for a command applied without recording and not refused: one object for all. */
const NOT_RECORDED: Applied = Object.freeze({ events: NO_EVENTS });

export class OrderManager {
  readonly rules: ExchangeRules;
  readonly clock: SessionClock;
  readonly engines = new Map<string, MatchingEngine>();
  readonly tapes = new Map<string, TradeTape>();
  /** The open orders (an order leaves when it fills or is canceled). */
  readonly orders = new Map<number, Order>();
  readonly accounts = new Map<string, AccountState>();
  /** The executions that left the state, folded (they are in the journal's store). */
  retired = new RetiredDigest();
  /** Where the checks find finished orders (the service gives the journal's store). */
  finished: FinishedOrders = NO_FINISHED;
  /** Where finished orders and executions go as they leave the state. */
  retiring: Retiring = NO_RETIRING;
  /** The sequence number of the last command applied. */
  seq = 0;
  /** The time of the last command applied: the sequencer never stamps an earlier one. */
  lastAt = 0;
  nextOrderId = 1;
  nextExecutionId = 1;
  /** The order the last `order.new` placed, open or finished since (the service answers it). */
  placed: Order | undefined;
  /**
   * Whether `apply` returns events (unless told otherwise). A replay turns them off: the state
   * changes exactly the same, without building objects nobody reads.
   */
  recordEvents = true;
  /** The command being applied (one object, reused: apply is on the order path). */
  readonly #batch: Batch = { seq: 0, at: 0, events: [], record: true };

  constructor(rules: ExchangeRules, engines?: ReadonlyMap<string, MatchingEngine>) {
    this.rules = rules;
    this.clock = new SessionClock(rules.hours, rules.holidays);
    for (const spec of rules.symbols) {
      this.engines.set(spec.symbol, engines?.get(spec.symbol) ?? new MatchingEngine(spec));
      this.tapes.set(spec.symbol, new TradeTape());
    }
  }

  account(id: string): AccountState | undefined {
    return this.accounts.get(id);
  }

  /** Everything a new order must pass before it is sequenced; undefined when it may go. */
  checkNewOrder(accountId: string, request: OrderRequest, at: number): Refusal | undefined {
    return checkNewOrder(this, accountId, request, at);
  }

  /** The order an account placed today (the trading day of `at`) under a client order id. */
  orderByClientId(accountId: string, clientOrderId: string, at: number): Order | undefined {
    const day = this.clock.at(at).day;
    const id = this.accounts.get(accountId)?.clientOrderIds.find(day, clientOrderId);
    // A snapshot from before the bounded state also lists finished orders' ids: those are stored.
    const open = id === undefined ? undefined : this.orders.get(id);
    return open ?? finishedOnDay(this, accountId, clientOrderId, day);
  }

  checkCancel(accountId: string, orderId: number): Refusal | undefined {
    return checkCancel(this, accountId, orderId);
  }

  checkDeposit(
    accountId: string,
    cash: number,
    shares: Readonly<Record<string, number>>,
  ): Refusal | undefined {
    return checkDeposit(this, accountId, cash, shares);
  }

  /**
   * Applies the command sequenced `seq` (the next one: a gap is a bug upstream, and throws);
   * `record`: whether it returns events (the state changes the same either way).
   */
  apply(seq: number, command: Command, record = this.recordEvents): Applied {
    if (seq !== this.seq + 1) throw new RangeError(`command ${seq} applied after ${this.seq}: OUT_OF_ORDER`);
    this.seq = seq;
    this.lastAt = Math.max(this.lastAt, command.at);
    const batch = this.#batch;
    batch.seq = seq;
    batch.at = command.at;
    batch.events = record ? [] : NO_EVENTS;
    batch.record = record;
    let refusal: Refusal | undefined;
    switch (command.type) {
      case 'order.new':
        refusal = this.#newOrder(command);
        break;
      case 'order.cancel':
        refusal = this.#cancel(command);
        break;
      case 'orders.cancel-all':
        this.#cancelAll(command);
        break;
      case 'account.deposit':
        this.#deposit(command);
        break;
      case 'account.kill-switch':
        this.#killSwitch(command);
        break;
    }
    const events = batch.events;
    if (refusal !== undefined) return { events, refusal };
    return events === NO_EVENTS ? NOT_RECORDED : { events };
  }

  #accountOf(id: string): AccountState {
    let account = this.accounts.get(id);
    if (account === undefined) {
      account = newAccount(id);
      this.accounts.set(id, account);
    }
    return account;
  }

  #newOrder(command: NewOrder): Refusal | undefined {
    const { account: accountId, orderId, symbol, side, price, quantity, at } = command;
    const engine = this.engines.get(symbol)!;
    // No open order has an id at or above nextOrderId: the sequencer's own ids (all of them, but
    // for a bug upstream) skip a lookup that misses, in a map of every open order.
    if (orderId < this.nextOrderId && this.orders.has(orderId)) {
      return {
        code: 'EX_INVALID_ORDER',
        detail: `order id ${orderId} is taken`,
        extra: { result: 'INVALID_ORDER' },
      };
    }
    const account = this.#accountOf(accountId);
    const holding = holdingOf(account, symbol);
    this.nextOrderId = Math.max(this.nextOrderId, orderId + 1);
    if (this.rules.selfTrade === 'cancel-resting') {
      for (const id of selfCrossing(holding, side, price)) this.#engineCancel(id, 'self-trade');
    }
    const { clientOrderId } = command;
    const fields = {
      id: orderId,
      account: accountId,
      creationTime: at,
      symbol,
      side,
      price,
      orderType: 'limit',
      quantity,
      filledQuantity: 0,
      remainingQuantity: quantity,
      status: 'new',
    } as const;
    const order: Order = clientOrderId === undefined ? fields : { ...fields, clientOrderId };
    this.orders.set(orderId, order);
    this.placed = order;
    account.open.set(orderId, order);
    holding.open.add(order);
    if (clientOrderId !== undefined)
      account.clientOrderIds.record(this.clock.at(at).day, clientOrderId, orderId);
    boundOpened(holding, side, price);
    wallet.reserve(account.balances, holding, side, price, quantity);
    exposureIn(account, holding).open += quantity;
    engine.out.clear();
    engine.submit(engine.nextSeq, MSG_NEW, orderId, sideCode(side), price, quantity);
    return readOutput(this, engine, 'request', this.#batch);
  }

  #cancel(command: CancelOrder): Refusal | undefined {
    return this.#engineCancel(command.orderId, 'request');
  }

  #cancelAll(command: CancelAll): void {
    const account = this.accounts.get(command.account);
    if (account === undefined) return;
    for (const order of [...account.open.values()]) {
      if (command.symbol === undefined || order.symbol === command.symbol)
        this.#engineCancel(order.id, 'cancel-all');
    }
  }

  #deposit(command: Deposit): void {
    wallet.deposit(this.#accountOf(command.account).balances, command.cash, command.shares);
    if (this.#batch.record)
      this.#batch.events.push({
        v: 1,
        type: 'account.updated',
        seq: this.#batch.seq,
        at: this.#batch.at,
        account: command.account,
      });
  }

  #killSwitch(command: KillSwitch): void {
    const account = this.#accountOf(command.account);
    account.killed = command.on;
    if (command.on)
      for (const order of [...account.open.values()]) this.#engineCancel(order.id, 'kill-switch');
    if (this.#batch.record)
      this.#batch.events.push({
        v: 1,
        type: 'account.kill-switch',
        seq: this.#batch.seq,
        at: this.#batch.at,
        account: command.account,
        on: command.on,
      });
  }

  #engineCancel(orderId: number, reason: CancelReason): Refusal | undefined {
    const order = this.orders.get(orderId);
    if (order === undefined) {
      // Finished (a race upstream of the checks): the engine's answer, without asking it. Only
      // the refusal reads the store; the state changes the same whatever it holds.
      if (this.finished.order(orderId) === undefined)
        return { code: 'EX_ORDER_NOT_FOUND', detail: `no order ${orderId}` };
      return {
        code: 'EX_CANNOT_CANCEL_ALREADY_MATCHED',
        detail: 'the matching engine answered CANNOT_CANCEL_ALREADY_MATCHED',
        extra: { result: 'CANNOT_CANCEL_ALREADY_MATCHED' },
      };
    }
    const engine = this.engines.get(order.symbol)!;
    engine.out.clear();
    engine.submit(engine.nextSeq, MSG_CANCEL, orderId, 0, 0, 0);
    return readOutput(this, engine, reason, this.#batch);
  }
}
