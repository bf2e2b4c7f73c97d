/**
 * The consumer thread (consumer-thread.ts): the worker and the indexer over SQLite connections
 * of their own to the same files, so their parsing, filing and indexing run beside the thread
 * that answers SMTP. The main thread wakes its consumers when it enqueues, and publishes its
 * push events (the WebSocket and long-poll subscribers live there); on `stop` the consumers
 * finish their batch and the thread ends.
 */
import { EventEmitter } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { openEmbeddedMail } from '../adapters/embedded/open-embedded.ts';
import { selectContentChecks } from '../adapters/select-checks.ts';
import type { PushEvent } from '../core/events.ts';
import { startParseThread } from '../mime/parse-pool.ts';
import type { Push, Queue } from '../ports.ts';
import type {
  ConsumerThreadData,
  FromConsumerThread,
  PublishRequest,
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

/**
 * Push whose publish is done by the main thread: resolved once it is committed and emitted there.
 * The publishes of one turn (a worker's batch) cross as one message.
 */
function published(push: Push, replies: Map<number, (error?: Error) => void>): Push {
  let next = 0;
  const ask = perTurn<PublishRequest>((requests) => {
    try {
      post({ type: 'publish', requests });
    } catch (error) {
      for (const { id } of requests) {
        replies.get(id)?.(error instanceof Error ? error : new Error(String(error)));
        replies.delete(id);
      }
    }
  });
  return {
    publish: (userId: string, event: PushEvent) =>
      new Promise<void>((resolve, reject) => {
        const id = next++;
        replies.set(id, (error) => (error === undefined ? resolve() : reject(error)));
        ask({ id, userId, event });
      }),
    subscribe: (userId, listener) => push.subscribe(userId, listener),
    latest: (userId) => push.latest(userId),
    poll: (userId, since, options) => push.poll(userId, since, options),
  };
}

const ports = openEmbeddedMail({ dataDir: data.dataDir, synchronous: data.synchronous });
const wakes = new EventEmitter();
const replies = new Map<number, (error?: Error) => void>();
const queue = wakeable(ports.queue, wakes);
const parser = data.parseThread ? startParseThread() : undefined;
const roles = createInboundRoles({
  config: data.config,
  ports: { ...ports, queue, push: published(ports.push, replies) },
  checks: selectContentChecks(data.config),
  ...(parser === undefined ? {} : { parse: (raw: Buffer) => parser.parse(raw) }),
  onError,
});
const consumers = runInboundConsumers(queue, roles, { pollMs: data.pollMs, onError });

const stop = async (): Promise<void> => {
  await Promise.all(consumers.map((c) => c.stop()));
  await parser?.close();
  await ports.close();
  port.close();
};

port.on('message', (message: ToConsumerThread) => {
  if (message.type === 'ready') for (const topic of message.topics) wakes.emit(topic);
  else if (message.type === 'published')
    for (const { id, error } of message.outcomes) {
      replies.get(id)?.(error);
      replies.delete(id);
    }
  else
    stop().catch((error: unknown) => {
      onError(error);
      process.exit(1);
    });
});
post({ type: 'ready' });
