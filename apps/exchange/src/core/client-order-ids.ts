/**
 * An account's client order ids (FIX ClOrdID, tag 11) of its open orders of the current trading
 * day, each with the order it placed. FIX 4.4 asks a ClOrdID to be unique per session and trading
 * day: the first order of a new trading day forgets the previous day's, and an order that
 * finishes takes its id to the finished orders' store (where a resend of an order that filled at
 * once is still recognised), so the memory is bounded by the open orders. It is state of the
 * order manager: recorded when an order command is applied, so the journal's replay (and a
 * snapshot) rebuilds it exactly.
 */
export class ClientOrderIds {
  /** The trading day the ids belong to (YYYY-MM-DD), '' before the first. */
  day = '';
  readonly #orders = new Map<string, number>();

  /** The order `clientOrderId` placed on `day`, if it did. */
  find(day: string, clientOrderId: string): number | undefined {
    return day === this.day ? this.#orders.get(clientOrderId) : undefined;
  }

  /** Records the order of an id; the first one recorded for an id stays. */
  record(day: string, clientOrderId: string, orderId: number): void {
    if (day !== this.day) {
      this.day = day;
      this.#orders.clear();
    }
    if (!this.#orders.has(clientOrderId)) this.#orders.set(clientOrderId, orderId);
  }

  /** The order finished: its id is the store's to answer from now on. */
  forget(clientOrderId: string, orderId: number): void {
    if (this.#orders.get(clientOrderId) === orderId) this.#orders.delete(clientOrderId);
  }

  get size(): number {
    return this.#orders.size;
  }

  /** [clientOrderId, orderId] pairs in the order they were recorded (snapshots). */
  entries(): Array<[string, number]> {
    return [...this.#orders];
  }

  static restore(day: string, entries: ReadonlyArray<readonly [string, number]>): ClientOrderIds {
    const ids = new ClientOrderIds();
    ids.day = day;
    for (const [clientOrderId, orderId] of entries) ids.#orders.set(clientOrderId, orderId);
    return ids;
  }
}
