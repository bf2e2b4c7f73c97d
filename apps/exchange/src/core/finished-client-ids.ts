import type { Order } from './messages.ts';
import type { FinishedOrders } from './order-manager.ts';

/** Ids kept before the memory gives up (about 60 MB of keys): a miss then asks the store. */
export const FINISHED_CLIENT_IDS_LIMIT = 500_000;

/**
 * Answers "did this account's finished order use this client order id?" from memory when it can.
 * Every new order with a ClOrdID asks, and nearly always the answer is no: a store query each
 * time cost ~10 % of the FIX order path. The memory holds the ClOrdIDs of every order that
 * finished since the process started; while it is complete (the process replayed the whole
 * journal, so no order finished before it, and the limit was never passed) a miss is the answer.
 * Otherwise, and on a hit (a duplicate: rare), the store answers, as before, so a ClOrdID is
 * still refused after a restart.
 */
export class FinishedClientIds implements FinishedOrders {
  readonly #store: FinishedOrders;
  readonly #limit: number;
  readonly #ids = new Map<string, Set<string>>();
  #size = 0;
  #complete: boolean;

  /** `complete`: no order finished before this memory started (the store has none to tell). */
  constructor(store: FinishedOrders, complete: boolean, limit = FINISHED_CLIENT_IDS_LIMIT) {
    this.#store = store;
    this.#complete = complete;
    this.#limit = limit;
  }

  /** Whether a miss is answered from memory. */
  get complete(): boolean {
    return this.#complete;
  }

  /** An order left the state for the store. */
  finished(order: Order): void {
    const { clientOrderId } = order;
    if (clientOrderId === undefined || !this.#complete) return;
    if (this.#size >= this.#limit) {
      // Past the bound: the memory is let go and the store answers from now on.
      this.#complete = false;
      this.#ids.clear();
      this.#size = 0;
      return;
    }
    let ids = this.#ids.get(order.account);
    if (ids === undefined) this.#ids.set(order.account, (ids = new Set()));
    if (!ids.has(clientOrderId)) {
      ids.add(clientOrderId);
      this.#size++;
    }
  }

  order(id: number): Order | undefined {
    return this.#store.order(id);
  }

  byClientId(account: string, clientOrderId: string): readonly Order[] {
    if (this.#complete && this.#ids.get(account)?.has(clientOrderId) !== true) return NONE;
    return this.#store.byClientId(account, clientOrderId);
  }
}

const NONE: readonly Order[] = [];
