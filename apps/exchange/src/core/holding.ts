/**
 * One account's state in one symbol: its position, its risk exposure, its open orders and its
 * self-trade bounds, found with one map lookup per order instead of one per kind. Derived, not
 * snapshotted: the position and exposure are the very objects of the account's maps (which the
 * snapshot keeps), taken from them when the holding is made or the first time they exist; the
 * open orders and bounds are made again from the account's open orders at a restore.
 */
import { emptyExposure, type Exposure } from './risk.ts';
import { HoldingOrders } from './holding-orders.ts';
import type { Bound } from './self-trade.ts';
import type { Balances, Position } from './wallet.ts';

export interface Holding extends Bound {
  readonly symbol: string;
  /** The account's position in the symbol, once it has one (a buy alone makes none). */
  position: Position | undefined;
  /** Its exposure, once it has placed an order in the symbol. */
  exposure: Exposure | undefined;
  /**
   * The account's open orders in the symbol, oldest first (those of its `open` map in this
   * symbol, finished ones dropped lazily: holding-orders.ts): a self-trade scan reads these, not
   * every symbol's.
   */
  readonly open: HoldingOrders;
}

/** What holds holdings: an account's balances, exposure per symbol, and holdings. */
export interface HoldingOwner {
  readonly balances: Balances;
  readonly exposure: Map<string, Exposure>;
  readonly holdings: Map<string, Holding>;
}

/** The holding of `owner` in `symbol`, made on first use. */
export function holdingOf(owner: HoldingOwner, symbol: string): Holding {
  let holding = owner.holdings.get(symbol);
  if (holding === undefined) {
    holding = {
      symbol,
      position: owner.balances.positions.get(symbol),
      exposure: owner.exposure.get(symbol),
      minSell: Infinity,
      maxBuy: -Infinity,
      open: new HoldingOrders(),
    };
    owner.holdings.set(symbol, holding);
  }
  return holding;
}

/** The exposure, if any; a deposit or a restore may have made it since the holding was. */
export function knownExposure(owner: HoldingOwner, holding: Holding): Exposure | undefined {
  return (holding.exposure ??= owner.exposure.get(holding.symbol));
}

/** The exposure, made (in the account's map too) when there is none: for an order placed. */
export function exposureIn(owner: HoldingOwner, holding: Holding): Exposure {
  let exposure = knownExposure(owner, holding);
  if (exposure === undefined) {
    exposure = emptyExposure();
    owner.exposure.set(holding.symbol, exposure);
    holding.exposure = exposure;
  }
  return exposure;
}

/**
 * The exposure of a holding with an order placed (a fill, a cancel, an undone order): placing
 * made it, so a missing one is a bug, and throws rather than start again from zero.
 */
export function placedExposure(owner: HoldingOwner, holding: Holding): Exposure {
  const exposure = knownExposure(owner, holding);
  if (exposure === undefined) throw new Error(`no exposure in ${holding.symbol}, which has an order placed`);
  return exposure;
}
