/**
 * The consumer thread (consumer-thread.ts): the worker and the indexer over SQLite connections
 * of their own to the same files, so their parsing, filing and indexing run beside the thread
 * that answers SMTP. The main thread wakes its consumers when it enqueues. The thread writes
 * its push events to push.db itself (a batch's in one transaction, its publish resolved at the
 * COMMIT, as before its job's ack) and then hands the committed records to the main thread, where
 * the WebSocket and long-poll subscribers are; on `stop` the consumers finish their batch and the
 * thread ends.
 */
import { EventEmitter } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { openEmbeddedMail } from '../adapters/embedded/open-embedded.ts';
import { selectContentChecks } from '../adapters/select-checks.ts';
import { startParseThread } from '../mime/parse-pool.ts';
import type { Queue } from '../ports.ts';
import type {
  ConsumerThreadData,
  FromConsumerThread,
  PushedRecord,
  ToConsumerThread,
} from './consumer-thread-protocol.ts';
import { perTurn } from './per-turn.ts';
import { createInboundRoles, runInboundConsumers } from './inbound-roles.ts';

if (parentPort === null) throw new Error('consumer-thread-entry.ts runs as a worker thread only');
const port = parentPort;
const data = workerData as ConsumerThreadData;
const post = (message: FromConsumerThread): void => port.postMessage(message);
const onError = (error: unknown): void => {
  try {
    post({ type: 'error', error });
  } catch {
    // What structured cloning cannot carry (a function among its properties) goes as its text.
    post({ type: 'error', error: new Error(String(error)) });
  }
};

/** The queue, with the main thread's enqueues as wake-ups too (its own emitter sees only ours). */
function wakeable(queue: Queue, wakes: EventEmitter): Queue {
  return {
    enqueue: (topic, id, payload, options) => queue.enqueue(topic, id, payload, options),
    claim: (topic, options) => queue.claim(topic, options),
    ack: (topic, id) => queue.ack(topic, id),
    retry: (topic, id, notBefore) => queue.retry(topic, id, notBefore),
    stats: (topic) => queue.stats(topic),
    onReady(topic, listener) {
      const off = queue.onReady(topic, listener);
      wakes.on(topic, listener);
      return () => {
        off();
        wakes.off(topic, listener);
      };
    },
  };
}

const ports = openEmbeddedMail({
  dataDir: data.dataDir,
  synchronous: data.synchronous,
  ...(data.walRestarts === undefined ? {} : { walCheckpoints: data.walRestarts }),
});
const wakes = new EventEmitter();
// What this thread commits to push.db reaches the main thread's subscribers, a turn's in one message.
const pushed = perTurn<PushedRecord>((records) => post({ type: 'pushed', records }));
ports.push.observe((userId, record) => pushed({ userId, record }));
const queue = wakeable(ports.queue, wakes);
const parser = data.parseThread ? startParseThread() : undefined;
parser?.warm();
const roles = createInboundRoles({
  config: data.config,
  ports: { ...ports, queue },
  checks: selectContentChecks(data.config),
  ...(parser === undefined ? {} : { parse: (raw: Buffer) => parser.parse(raw) }),
  onError,
});
const consumers = runInboundConsumers(queue, roles, {
  pollMs: data.pollMs,
  indexEveryMs: data.config.MAIL_INDEX_EVERY_MS,
  onError,
});

const stop = async (): Promise<void> => {
  await Promise.all(consumers.map((c) => c.stop()));
  await parser?.close();
  await ports.close();
  port.close();
};

port.on('message', (message: ToConsumerThread) => {
  if (message.type === 'ready') for (const topic of message.topics) wakes.emit(topic);
  else
    stop().catch((error: unknown) => {
      onError(error);
      process.exit(1);
    });
});
post({ type: 'ready' });
