/**
 * The order manager with the engines it feeds: the exchange's whole state as one deterministic
 * state machine. The pipeline asks it to `check…` a request (pure: the gateway's rules, the kill
 * switch, the session, risk, self-trade and the wallet, in that order, nothing changed), then
 * stamps the command with the next sequence number, journals it, and `apply`s it. `apply` changes
 * state and returns events; applying the journal in order rebuilds the same state exactly.
 *
 * State per account: balances (wallet.ts), exposure per symbol (risk.ts), open orders and their
 * client order ids; per account and symbol a holding (holding.ts) finds the position, exposure
 * and self-trade bounds with one lookup. Per symbol: the matching engine and the trade tape. Executions, and orders
 * once filled or canceled, leave the state as they happen (the events carry them to the
 * journal's store, which the checks ask through `finished`), handed to `retiring` and folded
 * into `retired`, so the state digest still covers them.
 */
import { ClientOrderIds } from './client-order-ids.ts';
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
  Execution,
  KillSwitch,
  NewOrder,
  Order,
  Side,
} from './messages.ts';
import { checkOrderShape, type OrderRequest, type Refusal } from './order-checks.ts';
import { exposureIn, holdingOf, knownExposure, type Holding } from './holding.ts';
import { checkRisk, type Exposure, type RiskLimits } from './risk.ts';
import { RetiredDigest } from './retired-digest.ts';
import { boundOpened, mayCross, scanCrossing, type SelfTradeMode } from './self-trade.ts';
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

export interface AccountState {
  readonly id: string;
  readonly balances: wallet.Balances;
  readonly exposure: Map<string, Exposure>;
  /** Open orders, oldest first. */
  readonly open: Map<number, Order>;
  killed: boolean;
  /** Today's client order ids (FIX ClOrdID) of open orders and the orders they placed. */
  readonly clientOrderIds: ClientOrderIds;
  /** Derived (not snapshotted): per symbol, the position, exposure and self-trade bounds. */
  readonly holdings: Map<string, Holding>;
}

/** The finished orders (not state: the journal's store keeps them), as the checks ask for them. */
export interface FinishedOrders {
  order(id: number): Order | undefined;
  /** The account's finished orders placed under a client order id, oldest first. */
  byClientId(account: string, clientOrderId: string): readonly Order[];
}

const NO_FINISHED: FinishedOrders = { order: () => undefined, byClientId: () => [] };

/**
 * Where what leaves the state goes, as it leaves (replays included: unlike events, never turned
 * off). The service hands it to the journal, which holds it until the next snapshot stores it.
 */
export interface Retiring {
  order(order: Order): void;
  execution(execution: Execution): void;
}

export const NO_RETIRING: Retiring = { order: () => {}, execution: () => {} };

export interface Applied {
  readonly events: ExchangeEvent[];
  /** Set when the command was refused while being applied (the engine's own checks). */
  readonly refusal?: Refusal;
}

const sideCode = (side: Side): 0 | 1 => (side === 'buy' ? SIDE_BUY : SIDE_SELL);

/** The events of a command applied without recording: one empty list (frozen: a push is a bug). */
const NO_EVENTS = Object.freeze([]) as unknown as ExchangeEvent[];

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
    const engine = this.engines.get(request.symbol);
    const shape = checkOrderShape(engine?.spec, request);
    if (shape !== undefined) return shape;
    const { symbol, side, price, quantity } = request;
    const account = this.accounts.get(accountId);
    if (account?.killed === true) {
      return { code: 'EX_KILL_SWITCH', detail: `account ${accountId} is suspended by its kill switch` };
    }
    const session = this.clock.at(at);
    const { clientOrderId } = request;
    if (clientOrderId !== undefined && account !== undefined) {
      const placed =
        account.clientOrderIds.find(session.day, clientOrderId) ??
        this.#finishedByClientId(accountId, clientOrderId, session.day)?.id;
      if (placed !== undefined) {
        return {
          code: 'EX_DUPLICATE_CLIENT_ORDER_ID',
          detail: `client order id ${clientOrderId} placed order ${placed} today`,
          extra: { orderId: placed },
        };
      }
    }
    if (!session.open)
      return {
        code: 'EX_MARKET_CLOSED',
        detail: 'the market is closed: orders are taken during the trading session only',
      };
    // A holding is derived state: making one here changes nothing a snapshot or digest sees.
    const holding = account === undefined ? undefined : holdingOf(account, symbol);
    const exposure = holding === undefined ? undefined : knownExposure(account!, holding);
    const risk = checkRisk(this.rules.limits, exposure, session.day, price, quantity);
    if (risk !== undefined) return { code: risk, detail: riskDetail(risk, this.rules.limits) };
    if (this.rules.selfTrade === 'cancel-incoming' && account !== undefined) {
      const crossing = this.#selfCrossing(holding!, side, price);
      if (crossing.length > 0) {
        return {
          code: 'EX_SELF_TRADE',
          detail: `the order would trade with your own resting order ${crossing[0]}`,
          extra: { restingOrderIds: crossing },
        };
      }
    }
    const funds =
      account === undefined
        ? wallet.canReserve(wallet.emptyBalances(), undefined, side, price, quantity)
        : wallet.canReserve(account.balances, holding, side, price, quantity);
    if (funds === 'EX_INSUFFICIENT_FUNDS') {
      return {
        code: funds,
        detail: `a buy of ${quantity} at ${price} needs ${price * quantity} of available cash`,
      };
    }
    if (funds === 'EX_INSUFFICIENT_SHARES') {
      return { code: funds, detail: `a sell of ${quantity} ${symbol} needs ${quantity} available shares` };
    }
    return undefined;
  }

  /** The order an account placed today (the trading day of `at`) under a client order id. */
  orderByClientId(accountId: string, clientOrderId: string, at: number): Order | undefined {
    const day = this.clock.at(at).day;
    const id = this.accounts.get(accountId)?.clientOrderIds.find(day, clientOrderId);
    // A snapshot from before the bounded state also lists finished orders' ids: those are stored.
    const open = id === undefined ? undefined : this.orders.get(id);
    return open ?? this.#finishedByClientId(accountId, clientOrderId, day);
  }

  /** The finished order placed on `day` under a client order id (the first, as ClientOrderIds keeps). */
  #finishedByClientId(accountId: string, clientOrderId: string, day: string): Order | undefined {
    for (const order of this.finished.byClientId(accountId, clientOrderId))
      if (this.clock.at(order.creationTime).day === day) return order;
    return undefined;
  }

  checkCancel(accountId: string, orderId: number): Refusal | undefined {
    const order = this.orders.get(orderId) ?? this.finished.order(orderId);
    if (order === undefined || order.account !== accountId) {
      return { code: 'EX_ORDER_NOT_FOUND', detail: `you have no order ${orderId}` };
    }
    if (order.status !== 'new') {
      return {
        code: 'EX_CANNOT_CANCEL_ALREADY_MATCHED',
        detail: `order ${orderId} is ${order.status}, no longer in the book`,
        extra: { result: 'CANNOT_CANCEL_ALREADY_MATCHED' },
      };
    }
    return undefined;
  }

  checkDeposit(
    accountId: string,
    cash: number,
    shares: Readonly<Record<string, number>>,
  ): Refusal | undefined {
    const unknown = Object.keys(shares).find((s) => !this.engines.has(s));
    if (unknown !== undefined)
      return { code: 'EX_UNKNOWN_SYMBOL', detail: `no symbol ${unknown} is traded here` };
    const refusal = wallet.checkDeposit(this.accounts.get(accountId)?.balances, cash, shares);
    if (refusal === 'EX_INVALID_DEPOSIT') {
      return {
        code: refusal,
        detail: 'a deposit is non-negative whole amounts of cash and shares, not all zero',
      };
    }
    if (refusal === 'EX_BALANCE_OVERFLOW')
      return { code: refusal, detail: 'the balance would pass 2^53 - 1' };
    return undefined;
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
    return refusal === undefined ? { events } : { events, refusal };
  }

  #accountOf(id: string): AccountState {
    let account = this.accounts.get(id);
    if (account === undefined) {
      account = {
        id,
        balances: wallet.emptyBalances(),
        exposure: new Map(),
        open: new Map(),
        killed: false,
        clientOrderIds: new ClientOrderIds(),
        holdings: new Map(),
      };
      this.accounts.set(id, account);
    }
    return account;
  }

  #selfCrossing(holding: Holding, side: Side, price: number): number[] {
    if (!mayCross(holding, side, price)) return [];
    return scanCrossing(holding, side, price, holding.open.values());
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
      for (const id of this.#selfCrossing(holding, side, price)) this.#engineCancel(id, 'self-trade');
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
    holding.open.set(orderId, order);
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

function riskDetail(code: NonNullable<ReturnType<typeof checkRisk>>, limits: RiskLimits): string {
  if (code === 'EX_RISK_MAX_ORDER_SIZE') return `an order may be for at most ${limits.maxQuantity} shares`;
  if (code === 'EX_RISK_MAX_NOTIONAL') return `price × quantity may be at most ${limits.maxNotional}`;
  return `at most ${limits.dailyCap} shares of one symbol per account per day (filled plus open)`;
}
