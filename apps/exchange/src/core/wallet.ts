/**
 * The wallet rules, as functions over one account's balances. Cash and shares are integers (the
 * smallest currency unit, whole shares); "available" excludes what open orders reserve.
 *   - a buy reserves price × quantity of cash, a sell reserves the shares (no short selling);
 *   - a fill settles: the buyer pays the trade price from the reserve and gets the rest of that
 *     slice of reserve back (its limit was at or above the trade price), and receives the shares;
 *     the seller's reserved shares go and the cash arrives;
 *   - a cancel releases what the remaining quantity still reserves.
 * Invariant (tested): reserved cash = Σ price × remaining over open buys, reserved shares =
 * Σ remaining over open sells, and cash and shares are conserved across accounts by fills.
 */
import type { Holding } from './holding.ts';

export interface Balances {
  cash: number;
  cashReserved: number;
  readonly positions: Map<string, Position>;
}

export interface Position {
  shares: number;
  sharesReserved: number;
}

export function emptyBalances(): Balances {
  return { cash: 0, cashReserved: 0, positions: new Map() };
}

export function position(balances: Balances, symbol: string): Position {
  let p = balances.positions.get(symbol);
  if (p === undefined) {
    p = { shares: 0, sharesReserved: 0 };
    balances.positions.set(symbol, p);
  }
  return p;
}

/** The holding's position, if any (a deposit may have made it since the holding was). */
function knownPosition(balances: Balances, holding: Holding | undefined): Position | undefined {
  if (holding === undefined) return undefined;
  return (holding.position ??= balances.positions.get(holding.symbol));
}

/** The holding's position, made (in the balances too) when there is none. */
function positionIn(balances: Balances, holding: Holding): Position {
  return (holding.position ??= position(balances, holding.symbol));
}

export type WalletRefusal = 'EX_INSUFFICIENT_FUNDS' | 'EX_INSUFFICIENT_SHARES' | undefined;

/** Whether the account can reserve for the order (checked before the order is sequenced). */
export function canReserve(
  balances: Balances,
  holding: Holding | undefined,
  side: 'buy' | 'sell',
  price: number,
  quantity: number,
): WalletRefusal {
  if (side === 'buy') return price * quantity <= balances.cash ? undefined : 'EX_INSUFFICIENT_FUNDS';
  const shares = knownPosition(balances, holding)?.shares ?? 0;
  return quantity <= shares ? undefined : 'EX_INSUFFICIENT_SHARES';
}

export function reserve(
  balances: Balances,
  holding: Holding,
  side: 'buy' | 'sell',
  price: number,
  quantity: number,
): void {
  if (side === 'buy') {
    balances.cash -= price * quantity;
    balances.cashReserved += price * quantity;
  } else {
    const p = positionIn(balances, holding);
    p.shares -= quantity;
    p.sharesReserved += quantity;
  }
}

/** Gives back what `reserve` set aside for `quantity` (a cancel, or the unfilled rest). */
export function release(
  balances: Balances,
  holding: Holding,
  side: 'buy' | 'sell',
  price: number,
  quantity: number,
): void {
  reserve(balances, holding, side, price, -quantity);
}

/** The buyer's side of a fill of `quantity` at `tradePrice` for an order limited at `limit`. */
export function settleBuy(
  balances: Balances,
  holding: Holding,
  limit: number,
  tradePrice: number,
  quantity: number,
): void {
  balances.cashReserved -= limit * quantity;
  balances.cash += (limit - tradePrice) * quantity;
  positionIn(balances, holding).shares += quantity;
}

/** The seller's side of a fill. */
export function settleSell(balances: Balances, holding: Holding, tradePrice: number, quantity: number): void {
  positionIn(balances, holding).sharesReserved -= quantity;
  balances.cash += tradePrice * quantity;
}

export type DepositRefusal = 'EX_INVALID_DEPOSIT' | 'EX_BALANCE_OVERFLOW' | undefined;

const amount = (n: unknown): boolean => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** A deposit of cash and shares: non-negative integers, something to deposit, no balance past 2^53 − 1. */
export function checkDeposit(
  balances: Balances | undefined,
  cash: number,
  shares: Readonly<Record<string, number>>,
): DepositRefusal {
  const entries = Object.entries(shares);
  if (!amount(cash) || !entries.every(([, n]) => amount(n))) return 'EX_INVALID_DEPOSIT';
  if (cash === 0 && entries.every(([, n]) => n === 0)) return 'EX_INVALID_DEPOSIT';
  const total = (balances?.cash ?? 0) + (balances?.cashReserved ?? 0) + cash;
  if (!Number.isSafeInteger(total)) return 'EX_BALANCE_OVERFLOW';
  for (const [symbol, n] of entries) {
    const p = balances?.positions.get(symbol);
    if (!Number.isSafeInteger((p?.shares ?? 0) + (p?.sharesReserved ?? 0) + n)) return 'EX_BALANCE_OVERFLOW';
  }
  return undefined;
}

export function deposit(balances: Balances, cash: number, shares: Readonly<Record<string, number>>): void {
  balances.cash += cash;
  for (const [symbol, n] of Object.entries(shares)) position(balances, symbol).shares += n;
}
