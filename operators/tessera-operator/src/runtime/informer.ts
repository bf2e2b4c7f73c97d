/**
 * A list + watch informer (client-node's ListWatch: it lists, watches from the list's
 * resourceVersion, and lists again when a watch ends or expires) feeding a work queue, plus:
 * - a restart with back-off after an error: ListWatch stops for good when a list or a watch
 *   fails (a fresh API server answers 429 "storage is (re)initializing" for a while, a new CRD
 *   404), so the informer starts it again, 0.2 s doubling to 30 s;
 * - `synced`, which resolves after the first list that succeeded;
 * - a resync: every `resyncMs` every cached object is queued again, so a missed event or a
 *   decision that depends on time (a period's end) is acted on without any event at all.
 */
import {
  makeInformer,
  type KubeConfig,
  type KubernetesObject,
  type ListPromise,
} from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { backoffDelay } from './backoff.ts';

export interface WatchedResource<T extends KubernetesObject> {
  readonly path: string;
  readonly list: ListPromise<T>;
  readonly labelSelector?: string;
}

export interface RunningInformer<T extends KubernetesObject> {
  get(name: string, namespace: string): T | undefined;
  list(namespace?: string): readonly T[];
  /** Resolves once a list has filled the cache. */
  readonly synced: Promise<void>;
  stop(): Promise<void>;
}

const RESTART = { baseMs: 200, maxMs: 30_000 };

export function startInformer<T extends KubernetesObject>(
  config: KubeConfig,
  resource: WatchedResource<T>,
  options: { onChange: (object: T) => void; resyncMs?: number; logger: Logger },
): RunningInformer<T> {
  const informer = makeInformer<T>(config, resource.path, resource.list, resource.labelSelector);
  for (const verb of ['add', 'update', 'delete'] as const) informer.on(verb, options.onChange);
  let stopping = false;
  let failures = 0;
  let failedSince = false; // an error since the last start
  let restart: NodeJS.Timeout | undefined;
  let markSynced: () => void = () => undefined;
  const synced = new Promise<void>((resolve) => (markSynced = resolve));

  const start = async () => {
    failedSince = false;
    await informer.start();
    if (!failedSince && !stopping) {
      failures = 0;
      markSynced();
    }
  };
  informer.on('error', (error: unknown) => {
    if (stopping) return; // stopping aborts the watch on purpose
    failedSince = true;
    failures += 1;
    const delay = backoffDelay(failures, RESTART);
    options.logger.warn(
      { err: error, path: resource.path, retryInMs: delay },
      'list/watch failed; restarting',
    );
    clearTimeout(restart);
    restart = setTimeout(() => void start(), delay);
  });
  void start();
  let resync: NodeJS.Timeout | undefined;
  if (options.resyncMs !== undefined) {
    resync = setInterval(() => {
      for (const object of informer.list()) options.onChange(object);
    }, options.resyncMs);
    resync.unref();
  }
  return {
    get: (name, namespace) => informer.get(name, namespace),
    list: (namespace) => informer.list(namespace),
    synced,
    async stop() {
      stopping = true;
      clearTimeout(restart);
      clearInterval(resync);
      await informer.stop();
    },
  };
}
