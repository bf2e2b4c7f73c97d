/**
 * The journal's group commit, whatever writes the batches. Appends of one turn of the event loop
 * form a batch, held in order in memory and written at the end of the turn as ONE row (the
 * commands of seqs first_seq…last_seq, and the executions they produced) in one transaction: one
 * insert and one fsync for the whole batch. While a batch is being written, the next one gathers
 * and goes when it is done, so the batches grow with the load. `commit()` is one promise per
 * batch; nothing of a batch is answered before it resolves, and a process killed before its
 * COMMIT loses the batch whole, whose effects nobody was told about. (The model is the
 * leaderboard's win log.)
 */
import type { Command, Execution, Order } from '../../core/messages.ts';
import type { FinishedQuery, Journal, StoredExecution, StoredSnapshot } from '../../ports.ts';
import { encodeCommand } from './command-codec.ts';
import type { ExecutionRow, JournalBatch, JournalReads } from './journal-store.ts';

/** Where batches are written: on the event loop (SqliteJournal) or by a writer thread (WorkerJournal). */
export interface BatchSink {
  /** Resolves once the batch is committed; rejects having committed nothing of it. */
  write(batch: JournalBatch): Promise<void>;
  /** Releases the writer (after the last batch). */
  close(): Promise<void>;
}

interface OpenBatch {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class GroupCommitJournal implements Journal {
  readonly #reads: JournalReads;
  readonly #sink: BatchSink;
  #lastSeq: number;
  #commands: string[] = [];
  #executions: ExecutionRow[] = [];
  /** The executions of the batch with the sink: read with the store's until it is settled. */
  #inFlightExecutions: ExecutionRow[] = [];
  #finished = new Map<number, Order>();
  /** The finished orders of the batch with the sink, likewise. */
  #inFlightFinished = new Map<number, Order>();
  #snapshot: StoredSnapshot | undefined;
  #batch: OpenBatch | undefined;
  /** A batch is with the sink, or scheduled to go at the end of this turn. */
  #busy = false;
  /** The batch with the sink, until it is settled. */
  #inFlight: Promise<void> | undefined;
  #closed = false;

  constructor(reads: JournalReads, sink: BatchSink) {
    this.#reads = reads;
    this.#sink = sink;
    this.#lastSeq = reads.lastCommitted();
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  append(seq: number, command: Command): void {
    if (this.#closed) throw new Error('journal is closed');
    if (seq !== this.#lastSeq + 1) throw new RangeError(`journal: seq ${seq} after ${this.#lastSeq}`);
    this.#open();
    this.#commands.push(encodeCommand(command));
    this.#lastSeq = seq;
  }

  appendExecution(e: Execution): void {
    if (this.#closed) throw new Error('journal is closed');
    this.#open();
    this.#executions.push([
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
    ]);
  }

  executionsOf(account: string, orderId?: number): StoredExecution[] {
    return this.#reads.executionsOf(account, orderId, this.#unwritten());
  }

  appendFinished(order: Order): void {
    if (this.#closed) throw new Error('journal is closed');
    this.#open();
    this.#finished.set(order.id, order);
  }

  finishedOrder(id: number): Order | undefined {
    return this.#reads.finishedOrder(id, [this.#inFlightFinished, this.#finished]);
  }

  finishedOrders(account: string, query: FinishedQuery): Order[] {
    return this.#reads.finishedOrders(account, query, [this.#inFlightFinished, this.#finished]);
  }

  hasFinishedAfter(account: string, after: number): boolean {
    return this.#reads.hasFinishedAfter(account, after, [this.#inFlightFinished, this.#finished]);
  }

  finishedByClientId(account: string, clientOrderId: string): Order[] {
    return this.#reads.finishedByClientId(account, clientOrderId, [this.#inFlightFinished, this.#finished]);
  }

  commit(): Promise<void> {
    return this.#batch?.promise ?? this.#inFlight ?? Promise.resolve();
  }

  replay(afterSeq: number, visit: (seq: number, command: Command) => void): void {
    this.#reads.replay(afterSeq, visit);
  }

  /** Every journaled execution, in order (reports and the tests' exactly-once check read them). */
  executions(visit: (row: ExecutionRow) => void): void {
    this.#reads.executions(visit);
  }

  saveSnapshot(snapshot: StoredSnapshot): void {
    if (this.#closed) throw new Error('journal is closed');
    this.#open();
    this.#snapshot = snapshot;
  }

  latestSnapshot(): StoredSnapshot | undefined {
    return this.#reads.latestSnapshot();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Everything appended is written (or has failed) before the writer goes.
    await this.commit().catch(() => undefined);
    await this.#sink.close();
  }

  /** Appended executions not known to be committed, oldest first. */
  *#unwritten(): Generator<ExecutionRow> {
    yield* this.#inFlightExecutions;
    yield* this.#executions;
  }

  #open(): void {
    if (this.#batch !== undefined) return;
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A waiter may come later or never: an unobserved failure must not end the process before
    // its owner sees it through commit().
    promise.catch(() => undefined);
    this.#batch = { promise, resolve, reject };
    if (!this.#busy) {
      this.#busy = true;
      setImmediate(() => this.#flush());
    }
  }

  /** Sends the open batch; the next one goes when this one is written. */
  #flush(): void {
    const batch = this.#batch;
    if (batch === undefined) {
      this.#busy = false;
      return;
    }
    const commands = this.#commands;
    const written: JournalBatch = {
      firstSeq: this.#lastSeq - commands.length + 1,
      lastSeq: this.#lastSeq,
      commands: commands.join(','),
      executions: JSON.stringify(this.#executions),
      finished: JSON.stringify([...this.#finished.values()]),
      ...(this.#snapshot === undefined ? {} : { snapshot: this.#snapshot }),
    };
    this.#batch = undefined;
    this.#commands = [];
    this.#inFlightExecutions = this.#executions;
    this.#executions = [];
    this.#inFlightFinished = this.#finished;
    this.#finished = new Map();
    this.#snapshot = undefined;
    const inFlight = this.#sink.write(written);
    this.#inFlight = inFlight;
    const settled = () => {
      if (this.#inFlight === inFlight) {
        this.#inFlight = undefined;
        this.#inFlightExecutions = [];
        this.#inFlightFinished = new Map();
      }
    };
    inFlight.then(
      () => {
        settled();
        batch.resolve();
        this.#flush();
      },
      (error: unknown) => {
        settled();
        // Lost whole: the seqs after the last committed are free again, and a batch gathered
        // meanwhile (its seqs follow the lost ones) is lost with it.
        const next = this.#batch;
        this.#batch = undefined;
        this.#commands = [];
        this.#executions = [];
        this.#finished = new Map();
        this.#snapshot = undefined;
        try {
          this.#lastSeq = this.#reads.lastCommitted();
        } catch {
          // The connection is gone (closed under us): nothing more to undo here.
        }
        batch.reject(error);
        next?.reject(error);
        this.#busy = false;
      },
    );
  }
}
