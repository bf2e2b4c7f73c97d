/**
 * What listeners (the WebSocket feed, FIX sessions) are told, and when. A batch's events leave only
 * once the batch is durable, in batch order: an outbox per group commit. With the journal's writer
 * thread the next batch is gathered, and applied, while one is written, so nothing a listener is
 * shown may be read from the state at delivery (it may hold a later batch that a crash would
 * lose): what listeners need is taken when each command is applied. Events carry copies of
 * their orders already (engine-output.ts); the outbox takes each touched symbol's best bid and ask,
 * and each filled order's filled quantity (FIX reports an order's CumQty from there when it first
 * meets the order: the order in memory may hold fills of a later batch).
 */
import type { L1 } from './core/market-data.ts';
import type { ExchangeEvent } from './core/messages.ts';

/** One durable batch: its events in seq order and the state listeners read, as of the batch. */
export interface DurableBatch {
  readonly events: readonly ExchangeEvent[];
  /** Per symbol the batch touched (a book level, a trade): its L1 after its last command there. */
  readonly l1: ReadonlyMap<string, L1>;
  /** Per order with an execution in the batch: its filled quantity after the last command of the batch that filled it. */
  readonly filled: ReadonlyMap<number, number>;
}

/** What the outbox reads of the state right after a command is applied. */
export interface AppliedState {
  /** A symbol's best bid and ask. */
  l1(symbol: string): L1;
  /** An order's filled quantity (open or finished). */
  filled(orderId: number): number;
}

/** A listener of durable batches, and whether it has anyone to tell now. */
interface Listener {
  readonly deliver: (batch: DurableBatch) => void;
  readonly active: () => boolean;
}

const always = (): boolean => true;

interface OpenBatch {
  readonly events: ExchangeEvent[];
  readonly l1: Map<string, L1>;
  readonly filled: Map<number, number>;
}

const openBatch = (): OpenBatch => ({ events: [], l1: new Map(), filled: new Map() });

export class Outbox {
  readonly #listeners = new Set<Listener>();
  readonly #onFailed: (error: unknown) => void;
  #open: OpenBatch = openBatch();
  /** The group commit the open batch waits for. */
  #watched: Promise<void> | undefined;

  /** `onFailed`: a batch's commit failed (its events are never delivered). */
  constructor(onFailed: (error: unknown) => void) {
    this.#onFailed = onFailed;
  }

  /**
   * `active` says whether the listener has anyone to tell (a feed subscriber, a FIX session):
   * while no listener is active commands build no events at all (the order path's cheapest case),
   * and a listener that becomes active gets the events of the commands sequenced from then on.
   */
  subscribe(deliver: (batch: DurableBatch) => void, active: () => boolean = always): () => void {
    const entry: Listener = { deliver, active };
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  /** Whether any listener has anyone to tell now. */
  get listening(): boolean {
    for (const listener of this.#listeners) if (listener.active()) return true;
    return false;
  }

  /**
   * After a command is applied (called for every command, so that each batch's commit is watched):
   * `commit` is its batch's group commit, `events` what it made (none when nobody listened) and
   * `state` the state now, after the command.
   */
  add(commit: Promise<void>, events: readonly ExchangeEvent[], state: AppliedState): void {
    if (commit !== this.#watched) {
      this.#watched = commit;
      const batch = openBatch();
      this.#open = batch;
      commit.then(() => this.#deliver(batch), this.#onFailed);
    }
    const { events: kept, l1: levels, filled } = this.#open;
    let touched: string | undefined;
    for (const event of events) {
      kept.push(event);
      const symbol = symbolOf(event);
      if (symbol !== undefined && symbol !== touched) {
        levels.set(symbol, state.l1(symbol));
        touched = symbol;
      }
      // After the whole command: a later command of the batch overwrites it.
      if (event.type === 'execution') {
        const { orderId } = event.execution;
        filled.set(orderId, state.filled(orderId));
      }
    }
  }

  #deliver(batch: DurableBatch): void {
    if (batch.events.length > 0) for (const listener of this.#listeners) listener.deliver(batch);
  }
}

/** The symbol whose market data the event changes, if any. */
function symbolOf(event: ExchangeEvent): string | undefined {
  if (event.type === 'book.level') return event.symbol;
  if (event.type === 'execution') return event.execution.symbol;
  return undefined;
}
