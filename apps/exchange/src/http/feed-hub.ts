/**
 * Fan-out of the WebSocket feed (docs/exchange-websocket.md). Each batch's update of a symbol
 * (or an account) is serialised once and the same bytes are written to every subscriber in one
 * turn of the event loop (fair distribution). A write never waits: a subscriber whose unsent
 * bytes pass `maxBuffered` is closed with 4008 and written to no more, so it cannot slow others.
 * The hub says what has a subscriber (`active`, FeedInterest), so that nothing is built for the rest.
 */
import type { DurableSnapshot, FeedInterest, FeedUpdates } from '../core/feed.ts';

/** What the hub needs of a socket (ws's WebSocket has it). */
export interface FeedSocket {
  send(data: Buffer, options: { binary: boolean }): void;
  readonly bufferedAmount: number;
  close(code: number, reason: string): void;
}

export const SLOW_CONSUMER_CLOSE = 4008;

export interface Subscriber {
  readonly socket: FeedSocket;
  readonly account: string | undefined;
  /** Per symbol: the seq of the snapshot sent; md updates up to it are already in it. */
  readonly symbols: Map<string, number>;
  dropped: boolean;
}

export class FeedHub implements FeedInterest {
  readonly #maxBuffered: number;
  readonly #snapshot: (symbol: string) => DurableSnapshot;
  readonly #bySymbol = new Map<string, Set<Subscriber>>();
  /** An account's set goes with its last subscriber (accounts come and go; symbols are few). */
  readonly #byAccount = new Map<string, Set<Subscriber>>();
  /** Subscriptions: (subscriber, symbol) pairs and subscribers with an account. */
  #watching = 0;
  /** Subscribers dropped as slow consumers since start (a metric). */
  dropped = 0;

  constructor(maxBuffered: number, snapshot: (symbol: string) => DurableSnapshot) {
    this.#maxBuffered = maxBuffered;
    this.#snapshot = snapshot;
  }

  /** Whether anyone subscribes to anything (an account's events or a symbol). */
  get active(): boolean {
    return this.#watching > 0;
  }

  wantsSymbol(symbol: string): boolean {
    return (this.#bySymbol.get(symbol)?.size ?? 0) > 0;
  }

  wantsAccount(account: string): boolean {
    return this.#byAccount.has(account);
  }

  add(socket: FeedSocket, account: string | undefined): Subscriber {
    const subscriber: Subscriber = { socket, account, symbols: new Map(), dropped: false };
    if (account !== undefined) this.#join(setOf(this.#byAccount, account), subscriber);
    return subscriber;
  }

  remove(subscriber: Subscriber): void {
    for (const symbol of subscriber.symbols.keys()) this.#leave(this.#bySymbol.get(symbol), subscriber);
    subscriber.symbols.clear();
    const { account } = subscriber;
    if (account === undefined) return;
    const set = this.#byAccount.get(account);
    this.#leave(set, subscriber);
    if (set?.size === 0) this.#byAccount.delete(account);
  }

  /** Subscribes and sends the symbol's snapshot (again, when already subscribed). */
  subscribe(subscriber: Subscriber, symbol: string): void {
    this.#join(setOf(this.#bySymbol, symbol), subscriber);
    this.#sendSnapshot(subscriber, symbol);
  }

  unsubscribe(subscriber: Subscriber, symbol: string): void {
    subscriber.symbols.delete(symbol);
    this.#leave(this.#bySymbol.get(symbol), subscriber);
  }

  #join(set: Set<Subscriber>, subscriber: Subscriber): void {
    if (set.has(subscriber)) return;
    set.add(subscriber);
    this.#watching++;
  }

  #leave(set: Set<Subscriber> | undefined, subscriber: Subscriber): void {
    if (set?.delete(subscriber) === true) this.#watching--;
  }

  /** Sends a message to one subscriber (answers to its own requests). */
  reply(subscriber: Subscriber, message: object): void {
    this.#write(subscriber, Buffer.from(JSON.stringify(message)));
  }

  publish(updates: FeedUpdates): void {
    for (const update of updates.symbols.values()) {
      const subscribers = this.#bySymbol.get(update.symbol);
      if (subscribers === undefined || subscribers.size === 0) continue;
      const bytes = Buffer.from(JSON.stringify(update));
      for (const subscriber of subscribers) {
        const seen = subscriber.symbols.get(update.symbol) ?? 0;
        if (update.seq <= seen) continue;
        // The snapshot holds part of this batch: a fresh one replaces it.
        if (update.fromSeq <= seen) this.#sendSnapshot(subscriber, update.symbol);
        else this.#write(subscriber, bytes);
      }
    }
    for (const [account, update] of updates.accounts) {
      const subscribers = this.#byAccount.get(account);
      if (subscribers === undefined || subscribers.size === 0) continue;
      const bytes = Buffer.from(JSON.stringify(update));
      for (const subscriber of subscribers) this.#write(subscriber, bytes);
    }
  }

  /**
   * Taken now, sent once the commands it shows are durable (a crash before then sends nothing).
   * Batches up to its seq are skipped from now on; later ones are delivered after their own
   * commit, so after it.
   */
  #sendSnapshot(subscriber: Subscriber, symbol: string): void {
    const { snapshot, durable } = this.#snapshot(symbol);
    subscriber.symbols.set(symbol, snapshot.seq);
    const bytes = Buffer.from(JSON.stringify(snapshot));
    durable.then(
      () => {
        // Unless unsubscribed meanwhile. One replaced by a newer snapshot still goes (in seq
        // order): under steady orders each batch may straddle the last snapshot, and skipping
        // the older ones would leave the subscriber with none.
        if (subscriber.symbols.has(symbol)) this.#write(subscriber, bytes);
      },
      // The journal failed: the exchange refuses everything until restarted; nothing to show.
      () => undefined,
    );
  }

  #write(subscriber: Subscriber, bytes: Buffer): void {
    if (subscriber.dropped) return;
    subscriber.socket.send(bytes, { binary: false });
    if (subscriber.socket.bufferedAmount > this.#maxBuffered) {
      subscriber.dropped = true;
      this.dropped++;
      this.remove(subscriber);
      subscriber.socket.close(
        SLOW_CONSUMER_CLOSE,
        `slow consumer: more than ${this.#maxBuffered} bytes unsent`,
      );
    }
  }
}

function setOf<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  return set;
}
