import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Period } from '../../core/period.ts';
import type { Ranking } from '../../core/ranking.ts';
import type { CheckpointChunk } from './sqlite-ranking-checkpoints.ts';

const CHUNK = 2_000;

export type CheckpointCommand = { readonly id: number } & (
  | { readonly kind: 'entries'; readonly period: Period; readonly chunk: CheckpointChunk }
  | { readonly kind: 'covered'; readonly period: Period; readonly seq: number }
  | { readonly kind: 'discard'; readonly period: Period }
  | { readonly kind: 'close' }
);

type Reply = { id: number; ok: true } | { id: number; ok: false; error: unknown };

// The worker is a sibling module: .ts when run from source, .js once built.
const WORKER = new URL(`./checkpoint-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/**
 * Writes ranking checkpoints through a worker thread.
 *
 * A save takes the players changed since the previous save, hands them over in chunks, and only
 * then records the seq S it covers (the ranking's seq when the save began). Every win up to S is
 * then in the saved entries; an entry may also hold later wins, which the replay skips because
 * each entry keeps the seq of its last win (see core/ranking.ts). The event loop only copies the
 * changed entries out; the upserts and fsyncs happen on the worker.
 */
export class CheckpointWriter {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  #nextId = 1;

  constructor(file: string, synchronous: 'full' | 'normal') {
    this.#worker = new Worker(WORKER, { workerData: { file, synchronous } });
    this.#worker.on('message', (reply: Reply) => {
      const waiter = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      if (reply.ok) waiter?.resolve();
      else waiter?.reject(new Error('checkpoint write failed', { cause: reply.error }));
    });
    this.#worker.on('error', (error: Error) => this.#failAll(error));
    this.#worker.on('exit', () => this.#failAll(new Error('checkpoint worker stopped')));
  }

  /** Saves the players changed since the last save. Resolves to how many were written. */
  async save(period: Period, ranking: Ranking): Promise<number> {
    const coveredSeq = ranking.appliedSeq;
    const handles = ranking.takeChanges();
    try {
      const written: Array<Promise<void>> = [];
      for (let start = 0; start < handles.length; start += CHUNK) {
        // Let requests in between chunks: copying entries out takes a little time too.
        if (start > 0) await new Promise((resolve) => setImmediate(resolve));
        const end = Math.min(handles.length, start + CHUNK);
        const chunk = {
          userIds: new Array<string>(end - start),
          scores: new Float64Array(end - start),
          seqs: new Float64Array(end - start),
        };
        for (let i = start; i < end; i++) {
          const entry = ranking.entryOf(handles[i]!);
          chunk.userIds[i - start] = entry.userId;
          chunk.scores[i - start] = entry.score;
          chunk.seqs[i - start] = entry.seq;
        }
        written.push(
          this.#send({ kind: 'entries', period, chunk }, [chunk.scores.buffer, chunk.seqs.buffer]),
        );
      }
      await Promise.all(written);
      await this.#send({ kind: 'covered', period, seq: coveredSeq });
      return handles.length;
    } catch (error) {
      ranking.markChanged(handles);
      throw error;
    }
  }

  discard(period: Period): Promise<void> {
    return this.#send({ kind: 'discard', period });
  }

  async close(): Promise<void> {
    await this.#send({ kind: 'close' });
    await this.#worker.terminate();
  }

  #send(command: DistributiveOmit<CheckpointCommand, 'id'>, transfer: ArrayBuffer[] = []): Promise<void> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ ...command, id }, transfer);
    });
  }

  #failAll(error: Error): void {
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
