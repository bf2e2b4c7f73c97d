import type { Order } from './messages.ts';
import type { FinishedOrders } from './leaving-state.ts';

/** Ids kept before the memory gives up (about 60 MB of keys): a miss then asks the store. */
export const FINISHED_CLIENT_IDS_LIMIT = 500_000;

/**
 * Answers "did this account's finished order use this client order id?" from memory when it can.
 * Every new order with a ClOrdID asks, and nearly always the answer is no: a store query each
 * time cost ~10 % of the FIX order path. A ClOrdID is unique per trading day, and the checks ask
 * about today's (the order manager keeps a finished order only when it was created today): the
 * memory holds the ids of the finished orders created on the latest trading day it has seen, and
 * forgets the day before when one of a new day finishes (days only move on: a command's time
 * never goes back).
 * It is complete for a day when it saw every order of that day finish: from the start when the
 * whole journal is replayed through it, or after a restart from a snapshot once the store's ids
 * of the day are loaded (`load`). A miss is then the answer. Until then, past the limit (until
 * the next day), and on a hit (a duplicate: rare), the store answers, so a reused ClOrdID is
 * refused whatever the memory holds.
 */
export class FinishedClientIds implements FinishedOrders {
  readonly #store: FinishedOrders;
  readonly #dayOf: (at: number) => string;
  readonly #limit: number;
  readonly #ids = new Map<string, Set<string>>();
  #size = 0;
  /** The trading day the ids are of ('' before the first). */
  #day = '';
  /** The memory lacks finished orders of this day and those before (undefined: of none). */
  #gapUntil: string | undefined;
  /** Opened from a snapshot and not loaded yet: it gathers what is replayed, and answers nothing. */
  #waiting: boolean;

  /**
   * `dayOf`: the trading day of a time, as YYYY-MM-DD (days are compared as text, which orders
   * them). `complete`: no order finished before this memory started
   * (the whole journal is replayed through it); otherwise it gathers the replay's and answers
   * nothing until `load`.
   */
  constructor(
    store: FinishedOrders,
    dayOf: (at: number) => string,
    complete: boolean,
    limit = FINISHED_CLIENT_IDS_LIMIT,
  ) {
    this.#store = store;
    this.#dayOf = dayOf;
    this.#limit = limit;
    this.#waiting = !complete;
  }

  /** Whether a miss is answered from memory. */
  get complete(): boolean {
    return !this.#waiting && (this.#gapUntil === undefined || this.#day > this.#gapUntil);
  }

  /**
   * After a restart from a snapshot (and its replay, whose finished orders this saw): `ids` are
   * the [account, ClOrdID] of the orders created on `day` (today) that the store holds. The
   * memory is then complete for today: the orders finished before the snapshot are the store's,
   * those after it were replayed through `finished`.
   */
  load(day: string, ids: Iterable<readonly [string, string]>): void {
    this.#waiting = false;
    if (day > this.#day) this.#newDay(day);
    for (const [account, clientOrderId] of ids) this.#add(account, clientOrderId);
    if (this.#size > this.#limit) this.#giveUp();
  }

  /** An order left the state for the store. */
  finished(order: Order): void {
    const { clientOrderId } = order;
    if (clientOrderId === undefined) return;
    const day = this.#dayOf(order.creationTime);
    if (day > this.#day) this.#newDay(day);
    // An order of an earlier day (it rested overnight) is never asked about again.
    if (day < this.#day) return;
    if (this.#gapUntil !== undefined && this.#gapUntil >= day) return;
    if (this.#size >= this.#limit) return this.#giveUp();
    this.#add(order.account, clientOrderId);
  }

  order(id: number): Order | undefined {
    return this.#store.order(id);
  }

  byClientId(account: string, clientOrderId: string): readonly Order[] {
    if (this.complete && this.#ids.get(account)?.has(clientOrderId) !== true) return NONE;
    return this.#store.byClientId(account, clientOrderId);
  }

  #newDay(day: string): void {
    this.#day = day;
    this.#ids.clear();
    this.#size = 0;
  }

  /** Past the bound: the memory is let go, and the store answers until the next day. */
  #giveUp(): void {
    this.#gapUntil = this.#day;
    this.#ids.clear();
    this.#size = 0;
  }

  #add(account: string, clientOrderId: string): void {
    let ids = this.#ids.get(account);
    if (ids === undefined) this.#ids.set(account, (ids = new Set()));
    // Counted by the size's change: one hash lookup, not a `has` and then an `add`.
    const before = ids.size;
    ids.add(clientOrderId);
    this.#size += ids.size - before;
  }
}

const NONE: readonly Order[] = [];
