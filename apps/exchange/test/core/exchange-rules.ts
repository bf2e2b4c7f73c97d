import type { Command, Execution } from '../../src/core/messages.ts';
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
  readonly manager: OrderManager;
  at = T0;
  /** The executions the events carried, as the journal's store keeps them (not the state's). */
  readonly executions: Execution[] = [];

  constructor(r: ExchangeRules = rules()) {
    this.manager = new OrderManager(r);
  }

  apply(command: Command) {
    const applied = this.manager.apply(this.manager.seq + 1, command);
    for (const e of applied.events) if (e.type === 'execution') this.executions.push(e.execution);
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
    const refusal = this.manager.checkNewOrder(input, this.at);
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

  get(orderId: number) {
    return this.manager.orders.get(orderId)!;
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
