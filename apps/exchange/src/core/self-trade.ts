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

/** Per account and symbol (a holding, holding.ts): bounds of its open orders' prices. */
export interface Bound {
  /** Of the open sells' prices, a lower bound (Infinity: none); of the open buys', an upper one. */
  minSell: number;
  maxBuy: number;
}

/*
 * A lower bound of an account's open sells' prices in a symbol and an upper bound of its open
 * buys', so that the common case (the new order cannot reach any of the account's own orders)
 * costs one comparison instead of a scan of its open orders. Bounds only widen as orders come;
 * a scan (when the bound says a cross is possible) tightens them to the exact values again.
 */

/** An order of the account in the bound's symbol now open. */
export function boundOpened(bound: Bound, side: 'buy' | 'sell', price: number): void {
  if (side === 'sell') {
    if (price < bound.minSell) bound.minSell = price;
  } else if (price > bound.maxBuy) bound.maxBuy = price;
}

/** False when no open order of the account can meet an order on `side` at `price`. */
export function mayCross(bound: Bound, side: 'buy' | 'sell', price: number): boolean {
  return side === 'buy' ? bound.minSell <= price : bound.maxBuy >= price;
}

/**
 * The ids of `open` (the account's open orders in the bound's symbol, and only those) that an
 * order on `side` at `price` would meet, oldest first; on the way, in the same pass, the bound
 * becomes exact again.
 */
export function scanCrossing(
  bound: Bound,
  side: 'buy' | 'sell',
  price: number,
  open: Iterable<Resting>,
): number[] {
  let minSell = Infinity;
  let maxBuy = -Infinity;
  const ids: number[] = [];
  for (const order of open) {
    if (order.side === 'sell') {
      if (order.price < minSell) minSell = order.price;
    } else if (order.price > maxBuy) maxBuy = order.price;
    if (crosses(side, price, order)) ids.push(order.id);
  }
  bound.minSell = minSell;
  bound.maxBuy = maxBuy;
  return ids.length > 1 ? ids.sort((a, b) => a - b) : ids;
}

/** No crossing (the common case, on every order): one list, not a new one per order. */
const NONE: readonly number[] = Object.freeze([]);

/** The ids of the holding's open orders an order on `side` at `price` would meet, oldest first. */
export function selfCrossing(
  holding: Bound & { readonly open: { live(): readonly Resting[] } },
  side: 'buy' | 'sell',
  price: number,
): readonly number[] {
  if (!mayCross(holding, side, price)) return NONE;
  return scanCrossing(holding, side, price, holding.open.live());
}
