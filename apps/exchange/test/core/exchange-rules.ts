import type { Command, Execution, Order } from '../../src/core/messages.ts';
import { OrderManager, type ExchangeRules } from '../../src/core/order-manager.ts';
import type { SelfTradeMode } from '../../src/core/self-trade.ts';
import { parseHours } from '../../src/core/trading-hours.ts';

/** Rules the order-manager tests share: two symbols, an always-open session, small limits. */
export function rules(overrides: Partial<ExchangeRules> & { selfTrade?: SelfTradeMode } = {}): ExchangeRules {
  return {
    symbols: [
      { symbol: 'AAPL', tickSize: 1, lotSize: 1, minPrice: 1, maxPrice: 1_000, maxQuantity: 10_000 },
      { symbol: 'MSFT', tickSize: 5, lotSize: 10, minPrice: 5, maxPrice: 1_000, maxQuantity: 10_000 },
    ],
    limits: { dailyCap: 5_000, maxQuantity: 10_000, maxNotional: 2_000_000 },
    hours: parseHours('always UTC'),
    holidays: [],
    selfTrade: 'cancel-resting',
    ...overrides,
  };
}

/** 2026-11-23T15:00:00Z, a Monday: inside the default New York session. */
export const T0 = Date.parse('2026-11-23T15:00:00Z');

type Req = {
  symbol?: string;
  side: 'buy' | 'sell';
  price: number;
  quantity: number;
  clientOrderId?: string;
};

/**
 * Drives an OrderManager as the service does (check, then apply with the next seq), so the
 * tests read as the trading flow: each call answers the refusal code or the applied events.
 */
export class Desk {
  manager: OrderManager;
  at = T0;
  /**
   * What the events took out of the state, kept as the journal's store keeps it: executions,
   * finished orders, and each account's order ids (oldest first).
   */
  readonly executions: Execution[] = [];
  readonly finished = new Map<number, Order>();
  readonly placed = new Map<string, number[]>();

  constructor(r: ExchangeRules = rules()) {
    this.manager = new OrderManager(r);
    this.use(this.manager);
  }

  /** Drives `manager` from now on (a restored one), its finished orders read from this desk. */
  use(manager: OrderManager): void {
    this.manager = manager;
    manager.finished = {
      order: (id) => this.finished.get(id),
      byClientId: (account, clientOrderId) =>
        [...this.finished.values()].filter((o) => o.account === account && o.clientOrderId === clientOrderId),
    };
  }

  /** A desk going on from this one's state restored as `manager` (the store is shared history). */
  restored(manager: OrderManager): Desk {
    const copy = new Desk(manager.rules);
    copy.use(manager);
    copy.at = this.at;
    copy.executions.push(...this.executions);
    for (const [id, order] of this.finished) copy.finished.set(id, order);
    for (const [account, ids] of this.placed) copy.placed.set(account, [...ids]);
    return copy;
  }

  apply(command: Command) {
    const applied = this.manager.apply(this.manager.seq + 1, command);
    for (const e of applied.events) {
      if (e.type === 'execution') this.executions.push(e.execution);
      else if (e.type === 'order.completed' || e.type === 'order.canceled')
        this.finished.set(e.orderId, e.order);
      else if (e.type === 'order.accepted') {
        const ids = this.placed.get(e.order.account) ?? [];
        this.placed.set(e.order.account, [...ids, e.order.id]);
      }
    }
    return applied;
  }

  /** The account's executions, oldest first. */
  executionsOf(account: string): Execution[] {
    return this.executions.filter((e) => e.account === account);
  }

  deposit(account: string, cash: number, shares: Record<string, number> = {}) {
    const refusal = this.manager.checkDeposit(account, cash, shares);
    if (refusal !== undefined) return refusal.code;
    return this.apply({ v: 1, type: 'account.deposit', at: this.at, account, cash, shares });
  }

  /** Places an order; answers its id, or the refusal code. */
  order(account: string, req: Req): number | string {
    const input = {
      account,
      symbol: req.symbol ?? 'AAPL',
      side: req.side,
      price: req.price,
      quantity: req.quantity,
      orderType: 'limit',
      ...(req.clientOrderId === undefined ? {} : { clientOrderId: req.clientOrderId }),
    };
    const refusal = this.manager.checkNewOrder(account, input, this.at);
    if (refusal !== undefined) return refusal.code;
    const orderId = this.manager.nextOrderId;
    const applied = this.apply({ v: 1, type: 'order.new', at: this.at, orderId, ...input });
    return applied.refusal?.code ?? orderId;
  }

  cancel(account: string, orderId: number): string | undefined {
    const refusal = this.manager.checkCancel(account, orderId);
    if (refusal !== undefined) return refusal.code;
    return this.apply({ v: 1, type: 'order.cancel', at: this.at, account, orderId }).refusal?.code;
  }

  /** An order, open (the state) or finished (the desk's store). */
  get(orderId: number) {
    return this.manager.orders.get(orderId) ?? this.finished.get(orderId)!;
  }

  cash(account: string) {
    const b = this.manager.account(account)!.balances;
    return { available: b.cash, reserved: b.cashReserved };
  }

  shares(account: string, symbol = 'AAPL') {
    const p = this.manager.account(account)!.balances.positions.get(symbol);
    return { available: p?.shares ?? 0, reserved: p?.sharesReserved ?? 0 };
  }
}
