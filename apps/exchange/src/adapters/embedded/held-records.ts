/**
 * The executions and finished orders since the last snapshot, held in memory by the journal
 * (issue #12). A replay from that snapshot derives them again, so holding them is as durable as
 * the journal; the next snapshot stores them in its own transaction (one sorted bulk insert,
 * instead of a write per account per batch), and then they go. A generation is what one snapshot
 * stores: the one gathering, and those sealed by a snapshot whose batch is not committed yet.
 * Indexed per account, as the reads ask.
 */
import type { Execution, Order } from '../../core/messages.ts';

/**
 * An execution as the store's inserts carry it:
 * [id, seq, orderId, account, symbol, side, price, quantity, at, counterOrderId]
 * (the journal rows of older versions carried them without the counter order).
 */
export type ExecutionRow = [number, number, number, string, string, string, number, number, number, number?];

/** An account's finished orders of a generation: in finishing order, sorted by id once read. */
class OrderRun {
  readonly orders: Order[] = [];
  #sorted = true;

  add(order: Order): void {
    const last = this.orders[this.orders.length - 1];
    if (last !== undefined && last.id > order.id) this.#sorted = false;
    this.orders.push(order);
  }

  byId(): readonly Order[] {
    if (!this.#sorted) {
      this.orders.sort((a, b) => a.id - b.id);
      this.#sorted = true;
    }
    return this.orders;
  }
}

const NONE: readonly never[] = [];

export class Generation {
  /** In id order (ids are handed out in order, and a replay derives them in order). */
  readonly executions: Execution[] = [];
  /**
   * The finished orders in finishing order. Adding one is a push: the indexes below are built
   * when first read (a read of a finished order, a page of them, a snapshot), for those added
   * since, as the order path reads none of them and one map entry per order cost it about 4 %.
   */
  readonly #finished: Order[] = [];
  /** Of #finished, how many the indexes hold; of `executions`, how many #executionsOf holds. */
  #ordersIndexed = 0;
  #executionsIndexed = 0;
  readonly #byId = new Map<number, Order>();
  readonly #ordersOf = new Map<string, OrderRun>();
  readonly #executionsOf = new Map<string, Execution[]>();
  /**
   * By account and client order id (`${account}\0${clientOrderId}`), oldest first, built when
   * first asked: the exchange asks only for an id its own memory knows (a duplicate, a resend;
   * finished-client-ids.ts), and a key and an entry made for every finished order cost about 4 %
   * of the FIX order path. `#unindexed` holds the orders with a client order id not in it yet.
   */
  readonly #byClientId = new Map<string, Order[]>();
  #unindexed: Order[] = [];

  addOrder(order: Order): void {
    this.#finished.push(order);
  }

  addExecution(execution: Execution): void {
    this.executions.push(execution);
  }

  /** The finished order with this id (the last one added under it). */
  order(id: number): Order | undefined {
    this.#indexOrders();
    return this.#byId.get(id);
  }

  /**
   * Every finished order, in finishing order: each is added once (an order finishes once), so a
   * snapshot's rows need no index built for them.
   */
  orders(): readonly Order[] {
    return this.#finished;
  }

  /** The account's finished orders, in id order. */
  ordersOf(account: string): readonly Order[] {
    this.#indexOrders();
    return this.#ordersOf.get(account)?.byId() ?? NONE;
  }

  executionsOf(account: string): readonly Execution[] {
    const executions = this.executions;
    for (let i = this.#executionsIndexed; i < executions.length; i++) {
      const execution = executions[i]!;
      const of = this.#executionsOf.get(execution.account);
      if (of === undefined) this.#executionsOf.set(execution.account, [execution]);
      else of.push(execution);
    }
    this.#executionsIndexed = executions.length;
    return this.#executionsOf.get(account) ?? NONE;
  }

  /** The account's finished orders placed under a client order id (not in id order). */
  byClientId(account: string, clientOrderId: string): readonly Order[] {
    this.#indexOrders();
    if (this.#unindexed.length > 0) this.#indexClientIds();
    return this.#byClientId.get(`${account}\0${clientOrderId}`) ?? NONE;
  }

  #indexOrders(): void {
    const finished = this.#finished;
    for (let i = this.#ordersIndexed; i < finished.length; i++) {
      const order = finished[i]!;
      this.#byId.set(order.id, order);
      let run = this.#ordersOf.get(order.account);
      if (run === undefined) this.#ordersOf.set(order.account, (run = new OrderRun()));
      run.add(order);
      if (order.clientOrderId !== undefined) this.#unindexed.push(order);
    }
    this.#ordersIndexed = finished.length;
  }

  #indexClientIds(): void {
    for (const order of this.#unindexed) {
      const key = `${order.account}\0${order.clientOrderId!}`;
      const placed = this.#byClientId.get(key);
      if (placed === undefined) this.#byClientId.set(key, [order]);
      else placed.push(order);
    }
    this.#unindexed = [];
  }
}

/**
 * What a snapshot's transaction inserts: JSON arrays of at most ROWS_PER_INSERT rows, each kind
 * sorted by the key of the table it goes to, so each b-tree takes them in one sweep.
 */
export interface StoredRows {
  /** Of ExecutionRows, by account, order and id. */
  readonly executions: readonly string[];
  /** Of orders, by id. */
  readonly orders: readonly string[];
  /** Of [account, id, status, symbol], by account and id. */
  readonly ordersByAccount: readonly string[];
  /** Of [account, clientOrderId, id], so sorted. */
  readonly ordersByClientId: readonly string[];
}

/** Rows per insert: a few MB of JSON per statement, far from the string limit. */
export const ROWS_PER_INSERT = 10_000;

function chunks<T>(rows: readonly T[], size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < rows.length; i += size) parts.push(JSON.stringify(rows.slice(i, i + size)));
  return parts;
}

export const executionRow = (e: Execution): ExecutionRow => [
  e.id,
  e.seq,
  e.orderId,
  e.account,
  e.symbol,
  e.side,
  e.price,
  e.quantity,
  e.at,
  e.counterOrderId,
];

/** SQLite's BINARY order for these ASCII keys (any order is correct; this one is the fast one). */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The generations' rows, each kind sorted by its table's key. */
export function storedRows(generations: readonly Generation[], size = ROWS_PER_INSERT): StoredRows {
  const executions: ExecutionRow[] = [];
  const orders: Order[] = [];
  for (const generation of generations) {
    for (const e of generation.executions) executions.push(executionRow(e));
    for (const order of generation.orders()) orders.push(order);
  }
  executions.sort((a, b) => byText(a[3], b[3]) || a[2] - b[2] || a[0] - b[0]);
  orders.sort((a, b) => a.id - b.id);
  const byAccount = orders.map((o) => [o.account, o.id, o.status, o.symbol] as const);
  byAccount.sort((a, b) => byText(a[0], b[0]) || a[1] - b[1]);
  const byClientId: Array<readonly [string, string, number]> = [];
  for (const o of orders)
    if (o.clientOrderId !== undefined) byClientId.push([o.account, o.clientOrderId, o.id]);
  byClientId.sort((a, b) => byText(a[0], b[0]) || byText(a[1], b[1]) || a[2] - b[2]);
  return {
    executions: chunks(executions, size),
    orders: chunks(orders, size),
    ordersByAccount: chunks(byAccount, size),
    ordersByClientId: chunks(byClientId, size),
  };
}
