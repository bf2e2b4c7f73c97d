import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WorkerChannel } from '@tessera/kit/worker';
import type { Period } from '../../core/period.ts';
import type { Ranking } from '../../core/ranking.ts';
import type { CheckpointChunk } from './sqlite-ranking-checkpoints.ts';

const CHUNK = 2_000;

export type CheckpointCommand =
  | { readonly kind: 'entries'; readonly period: Period; readonly chunk: CheckpointChunk }
  | { readonly kind: 'covered'; readonly period: Period; readonly seq: number }
  /** Drops the chunks of a checkpoint that failed: the previous one stays whole. */
  | { readonly kind: 'abandon' }
  | { readonly kind: 'discard'; readonly period: Period }
  | { readonly kind: 'close' };

// The worker is a sibling module: .ts when run from source, .js once built.
const WORKER = new URL(`./checkpoint-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/**
 * Writes ranking checkpoints through a worker thread.
 *
 * A save takes the players changed since the previous save, hands them over in chunks, and only
 * then records the seq S it covers (the ranking's seq when the save began). Every win up to S is
 * then in the saved entries; an entry may also hold later wins, which the replay skips because
 * each entry keeps the seq of its last win (see core/ranking.ts). The event loop only copies the
 * changed entries out; the upserts and fsyncs happen on the worker. The chunks and the seq are
 * one transaction there: a save that fails leaves the previous checkpoint whole.
 */
export class CheckpointWriter {
  readonly #channel: WorkerChannel<CheckpointCommand, null>;

  constructor(file: string, synchronous: 'full' | 'normal') {
    this.#channel = new WorkerChannel(
      new Worker(WORKER, { workerData: { file, synchronous } }),
      'ranking checkpoint writer',
    );
  }

  /** Saves the players changed since the last save. Resolves to how many were written. */
  async save(period: Period, ranking: Ranking): Promise<number> {
    const coveredSeq = ranking.appliedSeq;
    // Held by the ranking until `end`: a growth between chunks may renumber the players in it.
    const changes = ranking.takeChanges();
    try {
      const written: Array<Promise<void>> = [];
      for (let start = 0; start < changes.length; start += CHUNK) {
        // Let requests in between chunks: copying entries out takes a little time too.
        if (start > 0) await new Promise((resolve) => setImmediate(resolve));
        const end = Math.min(changes.length, start + CHUNK);
        const chunk = {
          userIds: new Array<string>(end - start),
          scores: new Float64Array(end - start),
          seqs: new Float64Array(end - start),
        };
        for (let i = start; i < end; i++) {
          const entry = changes.entryAt(i);
          chunk.userIds[i - start] = entry.userId;
          chunk.scores[i - start] = entry.score;
          chunk.seqs[i - start] = entry.seq;
        }
        const sent = this.#send({ kind: 'entries', period, chunk }, [chunk.scores.buffer, chunk.seqs.buffer]);
        // Handled below, after the loop: not an unhandled rejection while later chunks are copied.
        sent.catch(() => undefined);
        written.push(sent);
      }
      await settleAll(written);
      await this.#send({ kind: 'covered', period, seq: coveredSeq });
      changes.end(true);
      return changes.length;
    } catch (error) {
      changes.end(false);
      // After every chunk of this checkpoint (the thread takes commands in order): none is kept.
      await this.#send({ kind: 'abandon' }).catch(() => undefined);
      throw error;
    }
  }

  discard(period: Period): Promise<void> {
    return this.#send({ kind: 'discard', period });
  }

  close(): Promise<void> {
    return this.#channel.close({ kind: 'close' });
  }

  async #send(command: CheckpointCommand, transfer: ArrayBuffer[] = []): Promise<void> {
    try {
      await this.#channel.request(command, transfer);
    } catch (error) {
      throw new Error('checkpoint write failed', { cause: error });
    }
  }
}

/** Waits for every chunk, then fails with the first failure: the abandon goes after them all. */
async function settleAll(written: ReadonlyArray<Promise<void>>): Promise<void> {
  const settled = await Promise.allSettled(written);
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
}
