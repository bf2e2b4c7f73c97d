// A venue whose group commits the test holds: a batch handed to the journal's writer waits until
// the test lets it go (or fails it), and the next batch gathers, and is applied, meanwhile, as
// with the journal's writer thread (WorkerJournal), but at the test's pace.
import type { Test } from 'tap';
import { openSqlite } from '@tessera/kit';
import { GroupCommitJournal, type BatchSink } from '../../src/adapters/embedded/group-commit-journal.ts';
import {
  JournalBatchWriter,
  JournalReads,
  type JournalBatch,
} from '../../src/adapters/embedded/journal-store.ts';
import { ExchangeService } from '../../src/service.ts';
import { rules, T0 } from '../core/exchange-rules.ts';

interface Waiting {
  readonly batch: JournalBatch;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** Writes batches at once, or, while held, when the test releases them one by one. */
export class HeldSink implements BatchSink {
  readonly #writer: JournalBatchWriter;
  readonly #waiting: Waiting[] = [];
  #holding = false;

  constructor(writer: JournalBatchWriter) {
    this.#writer = writer;
  }

  /** The batches handed over but not written. */
  get waiting(): number {
    return this.#waiting.length;
  }

  hold(): void {
    this.#holding = true;
  }

  write(batch: JournalBatch): Promise<void> {
    if (!this.#holding) {
      this.#writer.write(batch);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.#waiting.push({ batch, resolve, reject }));
  }

  /** Writes the oldest batch held (still holding the ones after it). */
  release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) throw new Error('no batch is held');
    this.#writer.write(next.batch);
    next.resolve();
  }

  /** The oldest batch held fails, written not at all. */
  fail(): void {
    const next = this.#waiting.shift();
    if (next === undefined) throw new Error('no batch is held');
    next.reject(new Error('disk gone'));
  }

  /** Stops holding and writes what is held. */
  letGo(): void {
    this.#holding = false;
    while (this.#waiting.length > 0) this.release();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A service on a held journal, alice and bob with cash and AAPL; let go and closed at teardown. */
export async function heldVenue(t: Test): Promise<{ service: ExchangeService; sink: HeldSink }> {
  const db = openSqlite(':memory:');
  const sink = new HeldSink(new JournalBatchWriter(db));
  let now = T0;
  const service = ExchangeService.open({
    rules: rules({ limits: { dailyCap: 1_000_000, maxQuantity: 10_000, maxNotional: 100_000_000 } }),
    journal: new GroupCommitJournal(new JournalReads(db), sink),
    now: () => now++,
  });
  t.teardown(async () => {
    sink.letGo();
    await service.close();
    db.close();
  });
  await service.deposit('alice', 1_000_000, { AAPL: 1_000 });
  await service.deposit('bob', 1_000_000, { AAPL: 1_000 });
  return { service, sink };
}
