/**
 * What has left the order manager's state (order-manager.ts): finished orders and executions,
 * which the journal's store keeps. The checks ask it for finished orders; `Retiring` takes them
 * there as they leave.
 */
import type { Execution, Order } from './messages.ts';

/** The finished orders (not state: the journal's store keeps them), as the checks ask for them. */
export interface FinishedOrders {
  order(id: number): Order | undefined;
  /** The account's finished orders placed under a client order id, oldest first. */
  byClientId(account: string, clientOrderId: string): readonly Order[];
}

export const NO_FINISHED: FinishedOrders = { order: () => undefined, byClientId: () => [] };

/**
 * Where what leaves the state goes, as it leaves (replays included: unlike events, never turned
 * off). The service hands it to the journal, which holds it until the next snapshot stores it.
 */
export interface Retiring {
  order(order: Order): void;
  execution(execution: Execution): void;
}

export const NO_RETIRING: Retiring = { order: () => {}, execution: () => {} };
