/**
 * Self-trade prevention: an order must not match a resting order of the same account (a wash
 * trade). Real venues let the member choose what gives way; so does `EXCHANGE_SELF_TRADE`:
 *   cancel-resting   the account's crossing resting orders are canceled before the new order
 *                    matches (the default);
 *   cancel-incoming  the new order is refused (EX_SELF_TRADE) and the resting ones stay;
 *   allow            no prevention.
 * "Crossing" is judged on price alone: a buy at P against the account's sells at P or below, a
 * sell against its buys at P or above. That is conservative: a resting order that better-priced
 * orders of others would have shielded is canceled too, which a venue may do and a wash trade
 * may not.
 */
export const SELF_TRADE_MODES = ['cancel-resting', 'cancel-incoming', 'allow'] as const;
export type SelfTradeMode = (typeof SELF_TRADE_MODES)[number];

export interface Resting {
  readonly id: number;
  readonly side: 'buy' | 'sell';
  readonly price: number;
}

/** Whether an incoming order on `side` at `price` would meet `resting`. */
export function crosses(side: 'buy' | 'sell', price: number, resting: Resting): boolean {
  if (resting.side === side) return false;
  return side === 'buy' ? resting.price <= price : resting.price >= price;
}

/** The ids of the resting orders (of the same account and symbol) that the incoming one would meet, oldest first. */
export function selfCrossing(side: 'buy' | 'sell', price: number, resting: Iterable<Resting>): number[] {
  const ids: number[] = [];
  for (const order of resting) if (crosses(side, price, order)) ids.push(order.id);
  return ids.sort((a, b) => a - b);
}

/**
 * Per account and symbol: a lower bound of its open sells' prices and an upper bound of its open
 * buys', so that the common case (the new order cannot reach any of the account's own orders)
 * costs one comparison instead of a scan of its open orders. Bounds only widen as orders come;
 * a scan (when the bound says a cross is possible) tightens them to the exact values again.
 */
export class CrossingBounds {
  readonly #minSell = new Map<string, number>();
  readonly #maxBuy = new Map<string, number>();

  /** An order of the account now open. */
  opened(symbol: string, side: 'buy' | 'sell', price: number): void {
    if (side === 'sell') this.#minSell.set(symbol, Math.min(this.#minSell.get(symbol) ?? Infinity, price));
    else this.#maxBuy.set(symbol, Math.max(this.#maxBuy.get(symbol) ?? -Infinity, price));
  }

  /** False when no open order of the account can meet an order on `side` at `price`. */
  mayCross(symbol: string, side: 'buy' | 'sell', price: number): boolean {
    return side === 'buy'
      ? (this.#minSell.get(symbol) ?? Infinity) <= price
      : (this.#maxBuy.get(symbol) ?? -Infinity) >= price;
  }

  /** Sets exact bounds from the account's open orders in the symbol. */
  reset(symbol: string, open: Iterable<Resting>): void {
    this.#minSell.delete(symbol);
    this.#maxBuy.delete(symbol);
    for (const order of open) this.opened(symbol, order.side, order.price);
  }
}
