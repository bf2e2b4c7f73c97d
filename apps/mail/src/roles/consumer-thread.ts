/**
 * The worker and the indexer on a thread of their own (consumer-thread-entry.ts), so that
 * parsing, filing and indexing no longer share the thread that answers SMTP. The thread opens its
 * own SQLite connections to the embedded files (WAL: readers and the one writer of a moment
 * work side by side; a writer waits for another's commit).
 *
 * What crosses: the main thread's enqueues on the topics the thread consumes are forwarded as
 * wake-ups (it also polls); the thread commits its push events to push.db itself and the
 * committed records come here, to the WebSocket and long-poll subscribers (`Push.announce`).
 * The thread no longer waits for this busy thread to write them: that round trip held each
 * batch's ack back behind SMTP's turns, and push.db's COMMIT ran here.
 *
 * `startConsumerThread` resolves once the thread has opened its stores (it rejects, and nothing
 * keeps running, when the first thread cannot start). A thread that dies later (an uncaught
 * error, a native crash of its own) is reported to `onError` and started again after a pause
 * that doubles up to `MAX_RESTART_MS`; the jobs it had claimed come back when their lease runs
 * out (MAIL_JOB_LEASE_MS), as after a crash of the process.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TOPIC } from '../core/events.ts';
import type { Push, Queue } from '../ports.ts';
import type { Topic } from '../core/events.ts';
import type { ConsumerThreadData, FromConsumerThread, ToConsumerThread } from './consumer-thread-protocol.ts';
import { perTurn } from './per-turn.ts';

// The thread is a sibling module: .ts when run from source, .js once built.
const ENTRY = new URL(`./consumer-thread-entry${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

const FIRST_RESTART_MS = 100;
const MAX_RESTART_MS = 30_000;
/** A thread that ran this long without dying is healthy again: the next restart is quick. */
const HEALTHY_MS = 60_000;

export interface ConsumerThreadOptions {
  readonly data: ConsumerThreadData;
  /** The main thread's queue and push: its enqueues wake the thread, the thread's events are announced here. */
  readonly queue: Queue;
  readonly push: Push;
  readonly onError?: (error: unknown) => void;
}

export interface ConsumerThread {
  /** How many times the thread was started again after dying (diagnostics, tests). */
  readonly restarts: number;
  /** The running thread (tests end it to check that it comes back). */
  current(): Worker | undefined;
  /** Lets the consumers finish their batch, then ends the thread. */
  close(): Promise<void>;
}

export async function startConsumerThread(options: ConsumerThreadOptions): Promise<ConsumerThread> {
  const { queue, push } = options;
  const report = options.onError ?? ((error: unknown) => console.error(error));
  let thread: Worker | undefined;
  let closing = false;
  let restarts = 0;
  let pauseMs = FIRST_RESTART_MS;
  let restartTimer: NodeJS.Timeout | undefined;
  let exited: Promise<void> = Promise.resolve();
  /** Set once the first thread is ready: before, a thread that ends fails the start instead. */
  let running = false;

  const send = (message: ToConsumerThread): void => thread?.postMessage(message);

  /** Starts a thread; resolves once it is ready, rejects if it ends before. */
  const spawn = (): Promise<void> => {
    const started = Date.now();
    // The name is the OS thread's too (top, /proc, the benchmark's CPU by thread).
    const worker = new Worker(ENTRY, { workerData: options.data, name: 'mail-consumer' });
    thread = worker;
    let ready: () => void = () => undefined;
    let failed: (error: Error) => void = () => undefined;
    const readiness = new Promise<void>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    worker.on('message', (message: FromConsumerThread) => {
      if (message.type === 'ready') {
        ready();
        return;
      }
      if (message.type === 'error') {
        report(message.error);
        return;
      }
      // Committed already; a push without announce leaves them to the feeds' catch-up reads.
      for (const { userId, record } of message.records) push.announce?.(userId, record);
    });
    worker.on('error', (error: Error) => {
      failed(error);
      // Before the first thread is ready the failure is startConsumerThread's rejection.
      if (running) report(new Error(`the mail consumer thread failed: ${error.message}`));
    });
    exited = new Promise((resolve) => {
      worker.once('exit', (code) => {
        resolve();
        if (thread === worker) thread = undefined;
        failed(new Error(`the mail consumer thread exited (code ${code}) before it was ready`));
        if (closing || !running) return;
        if (Date.now() - started >= HEALTHY_MS) pauseMs = FIRST_RESTART_MS;
        report(
          new Error(`the mail consumer thread exited (code ${code}); starting it again in ${pauseMs} ms`),
        );
        restartTimer = setTimeout(() => {
          restarts++;
          // Whether it gets ready or dies again, its exit is handled here once more.
          spawn().catch(() => undefined);
        }, pauseMs);
        pauseMs = Math.min(pauseMs * 2, MAX_RESTART_MS);
      });
    });
    return readiness;
  };

  const wake = perTurn<Topic>((topics) => send({ type: 'ready', topics: [...new Set(topics)] }));
  const forwarded = [TOPIC.inbound, TOPIC.errors, TOPIC.changes].map((topic) =>
    queue.onReady(topic, () => wake(topic)),
  );
  const consumerThread: ConsumerThread = {
    get restarts() {
      return restarts;
    },
    current: () => thread,
    async close() {
      closing = true;
      clearTimeout(restartTimer);
      for (const off of forwarded) off();
      send({ type: 'stop' });
      await exited;
    },
  };
  try {
    await spawn();
    running = true;
  } catch (error) {
    await consumerThread.close();
    throw error;
  }
  return consumerThread;
}
