/** One account's part of the order manager's state (order-manager.ts). */
import { ClientOrderIds } from './client-order-ids.ts';
import type { Holding } from './holding.ts';
import type { Order } from './messages.ts';
import type { Exposure } from './risk.ts';
import { emptyBalances, type Balances } from './wallet.ts';

export interface AccountState {
  readonly id: string;
  readonly balances: Balances;
  readonly exposure: Map<string, Exposure>;
  /** Open orders, oldest first. */
  readonly open: Map<number, Order>;
  killed: boolean;
  /** Today's client order ids (FIX ClOrdID) of open orders and the orders they placed. */
  readonly clientOrderIds: ClientOrderIds;
  /** Derived (not snapshotted): per symbol, the position, exposure, open orders and self-trade bounds. */
  readonly holdings: Map<string, Holding>;
}

/** An account's state before its first command. */
export function newAccount(id: string): AccountState {
  return {
    id,
    balances: emptyBalances(),
    exposure: new Map(),
    open: new Map(),
    killed: false,
    clientOrderIds: new ClientOrderIds(),
    holdings: new Map(),
  };
}
