/**
 * The journal's group commit, whatever writes the batches. Appends of one turn of the event loop
 * form a batch, held in order in memory and written at the end of the turn as ONE row (the
 * commands of seqs first_seq…last_seq; not the executions they produced, which a replay derives
 * again) in one transaction: one insert and one fsync for the whole batch. While a batch is being written, the next one gathers
 * and goes when it is done, so the batches grow with the load. `commit()` is one promise per
 * batch; nothing of a batch is answered before it resolves, and a process killed before its
 * COMMIT loses the batch whole, whose effects nobody was told about. (The model is the
 * leaderboard's win log.) Executions and finished orders are held in memory until a snapshot
 * takes them to the store in its transaction (held-records.ts).
 */
import type { Command, Execution, Order } from '../../core/messages.ts';
import type { FinishedQuery, Journal, StoredExecution, StoredSnapshot } from '../../ports.ts';
import { CommandText } from './command-text.ts';
import { Generation, storedRows } from './held-records.ts';
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
  /** The batch's commands in their journal text, written as they are appended. */
  readonly #commands = new CommandText();
  /** How many commands the open batch holds. */
  #count = 0;
  /** Why a command of the open batch could not be written: the batch fails as a failed write does. */
  #unwritable: Error | undefined;
  /**
   * What is held until stored, oldest first: generations sealed by a snapshot not yet committed,
   * then the one gathering (last). A generation goes once its snapshot's batch has committed.
   */
  #held: Generation[] = [new Generation()];
  #snapshot: StoredSnapshot | undefined;
  /** The generations the open batch's snapshot stores. */
  #sealed: Generation[] = [];
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
    try {
      this.#commands.add(command);
    } catch (error) {
      // Its seq is taken all the same: the batch is lost whole when it goes (#flush).
      this.#unwritable ??= error instanceof Error ? error : new Error(String(error));
    }
    this.#count++;
    this.#lastSeq = seq;
  }

  appendExecution(e: Execution): void {
    if (this.#closed) throw new Error('journal is closed');
    // Durable with its command's batch (a replay derives it again); stored by the next snapshot.
    this.#gathering().addExecution(e);
  }

  keepExecution(e: Execution): void {
    this.#gathering().addExecution(e);
  }

  appendFinished(order: Order): void {
    this.#gathering().addOrder(order);
  }

  executionsOf(account: string, orderId?: number): StoredExecution[] {
    return this.#reads.executionsOf(account, orderId, this.#held);
  }

  finishedOrder(id: number): Order | undefined {
    return this.#reads.finishedOrder(id, this.#held);
  }

  finishedOrders(account: string, query: FinishedQuery): Order[] {
    return this.#reads.finishedOrders(account, query, this.#held);
  }

  hasFinishedAfter(account: string, after: number): boolean {
    return this.#reads.hasFinishedAfter(account, after, this.#held);
  }

  finishedByClientId(account: string, clientOrderId: string): Order[] {
    return this.#reads.finishedByClientId(account, clientOrderId, this.#held);
  }

  finishedClientIdsFrom(from: (creationTime: number) => boolean): Array<[string, string]> {
    // Only opening reads it: what is held then is the replay's, which the memory saw finish.
    return this.#reads.finishedClientIdsFrom(from);
  }

  commit(): Promise<void> {
    return this.#batch?.promise ?? this.#inFlight ?? Promise.resolve();
  }

  get pending(): boolean {
    return this.#batch !== undefined || this.#inFlight !== undefined;
  }

  replay(afterSeq: number, visit: (seq: number, command: Command) => void): void {
    this.#reads.replay(afterSeq, visit);
  }

  /**
   * Every execution, stored then held (the tests' exactly-once check: after a restart, those a
   * replay derived again and those the snapshots stored are each there once).
   */
  executions(visit: (row: ExecutionRow) => void): void {
    this.#reads.executions(visit, this.#held);
  }

  saveSnapshot(snapshot: StoredSnapshot): void {
    if (this.#closed) throw new Error('journal is closed');
    this.#open();
    this.#snapshot = snapshot;
    // Everything held so far is from commands up to the snapshot's: stored with it.
    this.#sealed.push(this.#gathering());
    this.#held.push(new Generation());
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

  #gathering(): Generation {
    return this.#held[this.#held.length - 1]!;
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
    let written: JournalBatch | undefined;
    // A batch that cannot be serialised (a command add() refused, kept in #unwritable) fails as a
    // failed write does, rather than leaving its waiters (and every later batch, behind #busy)
    // waiting for ever.
    let unwritable = this.#unwritable;
    try {
      if (unwritable === undefined)
        written = {
          firstSeq: this.#lastSeq - this.#count + 1,
          lastSeq: this.#lastSeq,
          commands: this.#commands.take(),
          ...(this.#snapshot === undefined
            ? {}
            : { snapshot: this.#snapshot, stored: storedRows(this.#sealed) }),
        };
    } catch (error) {
      unwritable = error instanceof Error ? error : new Error(String(error));
    }
    const sealed = this.#sealed;
    this.#batch = undefined;
    this.#commands.clear();
    this.#count = 0;
    this.#unwritable = undefined;
    this.#snapshot = undefined;
    this.#sealed = [];
    const inFlight =
      written === undefined
        ? Promise.reject(unwritable ?? new Error('batch not serialised'))
        : this.#sink.write(written);
    this.#inFlight = inFlight;
    const settled = () => {
      if (this.#inFlight === inFlight) this.#inFlight = undefined;
    };
    inFlight.then(
      () => {
        settled();
        // In the store now: the reads find them there.
        if (sealed.length > 0) this.#held = this.#held.filter((g) => !sealed.includes(g));
        batch.resolve();
        this.#flush();
      },
      (error: unknown) => {
        settled();
        // Lost whole: the seqs after the last committed are free again, and a batch gathered
        // meanwhile (its seqs follow the lost ones) is lost with it.
        const next = this.#batch;
        this.#batch = undefined;
        this.#commands.clear();
        this.#count = 0;
        this.#unwritable = undefined;
        this.#snapshot = undefined;
        // Still held (a restart derives them again from the snapshot before).
        this.#sealed = [];
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
