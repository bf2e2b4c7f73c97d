/**
 * The order manager with the engines it feeds: the exchange's whole state as one deterministic
 * state machine. The pipeline asks it to `check…` a request (pure: the gateway's rules, the kill
 * switch, the session, risk, self-trade and the wallet, in that order, nothing changed), then
 * stamps the command with the next sequence number, journals it, and `apply`s it. `apply` changes
 * state and returns events; applying the journal in order rebuilds the same state exactly.
 *
 * State per account: balances (wallet.ts), exposure per symbol (risk.ts), open orders, the ids of
 * all its orders and its executions. Per symbol: the matching engine and the trade tape.
 */
import {
  MSG_CANCEL,
  MSG_NEW,
  OUT_ACCEPTED,
  OUT_CANCELED,
  OUT_COMPLETED,
  OUT_EXECUTION,
  OUT_LEVEL,
  OUT_REJECTED,
  RESULT,
  SIDE_BUY,
  SIDE_SELL,
} from './codes.ts';
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
import { RECORD_WIDTH } from './output.ts';
import { checkOrderShape, type OrderRequest, type Refusal } from './order-checks.ts';
import { checkRisk, emptyExposure, recordFill, type Exposure, type RiskLimits } from './risk.ts';
import { CrossingBounds, selfCrossing, type SelfTradeMode } from './self-trade.ts';
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
  /** Every order id of the account, oldest first. */
  readonly orders: number[];
  readonly executions: Execution[];
  killed: boolean;
  /** Derived from `open` (not snapshotted): spares self-trade prevention a scan. */
  readonly bounds: CrossingBounds;
}

export interface Applied {
  readonly events: ExchangeEvent[];
  /** Set when the command was refused while being applied (the engine's own checks). */
  readonly refusal?: Refusal;
}

const sideCode = (side: Side): 0 | 1 => (side === 'buy' ? SIDE_BUY : SIDE_SELL);
const sideName = (code: number): Side => (code === SIDE_BUY ? 'buy' : 'sell');

export class OrderManager {
  readonly rules: ExchangeRules;
  readonly clock: SessionClock;
  readonly engines = new Map<string, MatchingEngine>();
  readonly tapes = new Map<string, TradeTape>();
  readonly orders = new Map<number, Order>();
  readonly accounts = new Map<string, AccountState>();
  /** The sequence number of the last command applied. */
  seq = 0;
  /** The time of the last command applied: the sequencer never stamps an earlier one. */
  lastAt = 0;
  nextOrderId = 1;
  nextExecutionId = 1;
  /**
   * Whether `apply` returns events. A replay turns them off: the state changes exactly the
   * same, without building objects nobody reads.
   */
  recordEvents = true;
  #events: ExchangeEvent[] = [];
  #seq = 0;
  #at = 0;

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
  checkNewOrder(request: OrderRequest, at: number): Refusal | undefined {
    const engine = this.engines.get(request.symbol);
    const shape = checkOrderShape(engine?.spec, request);
    if (shape !== undefined) return shape;
    const { account: accountId, symbol, side, price, quantity } = request;
    const account = this.accounts.get(accountId);
    if (account?.killed === true) {
      return { code: 'EX_KILL_SWITCH', detail: `account ${accountId} is suspended by its kill switch` };
    }
    const session = this.clock.at(at);
    if (!session.open)
      return {
        code: 'EX_MARKET_CLOSED',
        detail: 'the market is closed: orders are taken during the trading session only',
      };
    const risk = checkRisk(this.rules.limits, account?.exposure.get(symbol), session.day, price, quantity);
    if (risk !== undefined) return { code: risk, detail: riskDetail(risk, this.rules.limits) };
    if (this.rules.selfTrade === 'cancel-incoming' && account !== undefined) {
      const crossing = this.#selfCrossing(account, symbol, side, price);
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
        ? wallet.canReserve(wallet.emptyBalances(), symbol, side, price, quantity)
        : wallet.canReserve(account.balances, symbol, side, price, quantity);
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

  checkCancel(accountId: string, orderId: number): Refusal | undefined {
    const order = this.orders.get(orderId);
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

  /** Applies the command sequenced `seq` (the next one: a gap is a bug upstream, and throws). */
  apply(seq: number, command: Command): Applied {
    if (seq !== this.seq + 1) throw new RangeError(`command ${seq} applied after ${this.seq}: OUT_OF_ORDER`);
    this.seq = seq;
    this.lastAt = Math.max(this.lastAt, command.at);
    this.#events = [];
    this.#seq = seq;
    this.#at = command.at;
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
    const events = this.#events;
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
        orders: [],
        executions: [],
        killed: false,
        bounds: new CrossingBounds(),
      };
      this.accounts.set(id, account);
    }
    return account;
  }

  #selfCrossing(account: AccountState, symbol: string, side: Side, price: number): number[] {
    if (!account.bounds.mayCross(symbol, side, price)) return [];
    const open = this.#openIn(account, symbol);
    account.bounds.reset(symbol, open);
    return selfCrossing(side, price, open);
  }

  /** The account's open orders in the symbol, oldest first (a loop: this is on the order path). */
  #openIn(account: AccountState, symbol: string): Order[] {
    const open: Order[] = [];
    for (const order of account.open.values()) if (order.symbol === symbol) open.push(order);
    return open;
  }

  #newOrder(command: NewOrder): Refusal | undefined {
    const { account: accountId, orderId, symbol, side, price, quantity, at } = command;
    const engine = this.engines.get(symbol)!;
    if (this.orders.has(orderId)) {
      return {
        code: 'EX_INVALID_ORDER',
        detail: `order id ${orderId} is taken`,
        extra: { result: 'INVALID_ORDER' },
      };
    }
    const account = this.#accountOf(accountId);
    this.nextOrderId = Math.max(this.nextOrderId, orderId + 1);
    if (this.rules.selfTrade === 'cancel-resting') {
      for (const id of this.#selfCrossing(account, symbol, side, price)) this.#engineCancel(id, 'self-trade');
    }
    const order: Order = {
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
    };
    this.orders.set(orderId, order);
    account.orders.push(orderId);
    account.open.set(orderId, order);
    account.bounds.opened(symbol, side, price);
    wallet.reserve(account.balances, symbol, side, price, quantity);
    let exposure = account.exposure.get(symbol);
    if (exposure === undefined) account.exposure.set(symbol, (exposure = emptyExposure()));
    exposure.open += quantity;
    engine.out.clear();
    engine.submit(engine.nextSeq, MSG_NEW, orderId, sideCode(side), price, quantity);
    return this.#read(engine, 'request');
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
    if (this.recordEvents)
      this.#events.push({
        v: 1,
        type: 'account.updated',
        seq: this.#seq,
        at: this.#at,
        account: command.account,
      });
  }

  #killSwitch(command: KillSwitch): void {
    const account = this.#accountOf(command.account);
    account.killed = command.on;
    if (command.on)
      for (const order of [...account.open.values()]) this.#engineCancel(order.id, 'kill-switch');
    if (this.recordEvents)
      this.#events.push({
        v: 1,
        type: 'account.kill-switch',
        seq: this.#seq,
        at: this.#at,
        account: command.account,
        on: command.on,
      });
  }

  #engineCancel(orderId: number, reason: CancelReason): Refusal | undefined {
    const order = this.orders.get(orderId);
    if (order === undefined) return { code: 'EX_ORDER_NOT_FOUND', detail: `no order ${orderId}` };
    const engine = this.engines.get(order.symbol)!;
    engine.out.clear();
    engine.submit(engine.nextSeq, MSG_CANCEL, orderId, 0, 0, 0);
    return this.#read(engine, reason);
  }

  /** Turns the engine's output records into state changes and events. */
  #read(engine: MatchingEngine, reason: CancelReason): Refusal | undefined {
    const out = engine.out;
    const r = out.records;
    const symbol = engine.spec.symbol;
    let refusal: Refusal | undefined;
    for (let i = 0; i < out.count; i++) {
      const o = i * RECORD_WIDTH;
      switch (r[o]) {
        case OUT_ACCEPTED:
          if (this.recordEvents)
            this.#events.push({
              v: 1,
              type: 'order.accepted',
              seq: this.#seq,
              at: this.#at,
              order: { ...this.orders.get(r[o + 3]!)! },
            });
          break;
        case OUT_EXECUTION:
          this.#fill(r[o + 4]!, r[o + 6]!, r[o + 7]!, r[o + 8]!);
          break;
        case OUT_COMPLETED: {
          const order = this.orders.get(r[o + 3]!)!;
          order.status = 'completed';
          this.accounts.get(order.account)!.open.delete(order.id);
          if (this.recordEvents)
            this.#events.push({
              v: 1,
              type: 'order.completed',
              seq: this.#seq,
              at: this.#at,
              orderId: order.id,
              account: order.account,
              symbol,
            });
          break;
        }
        case OUT_CANCELED:
          this.#canceled(this.orders.get(r[o + 3]!)!, r[o + 4]!, reason);
          break;
        case OUT_LEVEL:
          if (this.recordEvents)
            this.#events.push({
              v: 1,
              type: 'book.level',
              seq: this.#seq,
              at: this.#at,
              symbol,
              side: sideName(r[o + 3]!),
              price: r[o + 4]!,
              volume: r[o + 5]!,
              orders: r[o + 6]!,
            });
          break;
        case OUT_REJECTED:
          refusal = this.#rejected(r[o + 3]!, r[o + 4]!, r[o + 5]!);
          break;
      }
    }
    out.clear();
    return refusal;
  }

  #fill(orderId: number, price: number, quantity: number, counterOrderId: number): void {
    const order = this.orders.get(orderId)!;
    const account = this.accounts.get(order.account)!;
    order.filledQuantity += quantity;
    order.remainingQuantity -= quantity;
    if (order.side === 'buy') {
      wallet.settleBuy(account.balances, order.symbol, order.price, price, quantity);
      this.tapes.get(order.symbol)!.record(this.#at, price, quantity);
    } else wallet.settleSell(account.balances, order.symbol, price, quantity);
    recordFill(account.exposure.get(order.symbol)!, this.clock.at(this.#at).day, quantity);
    const execution: Execution = {
      id: this.nextExecutionId++,
      orderId,
      account: order.account,
      symbol: order.symbol,
      side: order.side,
      price,
      orderType: 'limit',
      quantity,
      counterOrderId,
      at: this.#at,
      seq: this.#seq,
    };
    account.executions.push(execution);
    if (this.recordEvents)
      this.#events.push({ v: 1, type: 'execution', seq: this.#seq, at: this.#at, execution });
  }

  #canceled(order: Order, quantity: number, reason: CancelReason): void {
    const account = this.accounts.get(order.account)!;
    order.status = 'canceled';
    account.open.delete(order.id);
    wallet.release(account.balances, order.symbol, order.side, order.price, quantity);
    account.exposure.get(order.symbol)!.open -= quantity;
    if (this.recordEvents)
      this.#events.push({
        v: 1,
        type: 'order.canceled',
        seq: this.#seq,
        at: this.#at,
        orderId: order.id,
        account: order.account,
        symbol: order.symbol,
        canceledQuantity: quantity,
        reason,
      });
  }

  /**
   * The engine refused what the checks let through (a bug or a race the distributed mode may
   * have): a refused new order is undone, so state stays as if it had never come.
   */
  #rejected(code: number, orderId: number, expectedSeq: number): Refusal {
    const order = this.orders.get(orderId);
    if (
      code !== RESULT.CANNOT_CANCEL_ALREADY_MATCHED &&
      order !== undefined &&
      order.status === 'new' &&
      order.filledQuantity === 0 &&
      !this.engines.get(order.symbol)!.book.has(orderId)
    ) {
      const account = this.accounts.get(order.account)!;
      wallet.release(account.balances, order.symbol, order.side, order.price, order.quantity);
      account.exposure.get(order.symbol)!.open -= order.quantity;
      account.open.delete(orderId);
      account.orders.pop();
      this.orders.delete(orderId);
    }
    const result = (Object.keys(RESULT) as Array<keyof typeof RESULT>).find((name) => RESULT[name] === code)!;
    return {
      code: `EX_${result}` as Refusal['code'],
      detail: `the matching engine answered ${result}`,
      extra: expectedSeq >= 0 ? { result, expectedSeq } : { result },
    };
  }
}

function riskDetail(code: NonNullable<ReturnType<typeof checkRisk>>, limits: RiskLimits): string {
  if (code === 'EX_RISK_MAX_ORDER_SIZE') return `an order may be for at most ${limits.maxQuantity} shares`;
  if (code === 'EX_RISK_MAX_NOTIONAL') return `price × quantity may be at most ${limits.maxNotional}`;
  return `at most ${limits.dailyCap} shares of one symbol per account per day (filled plus open)`;
}
