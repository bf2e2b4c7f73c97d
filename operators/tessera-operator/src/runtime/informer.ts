/**
 * A list + watch informer (client-node's ListWatch: it lists, watches from the list's
 * resourceVersion and lists again when the watch ends or fails) feeding a work queue, plus a
 * resync: every `resyncMs` every cached object is queued again, so a missed event or a decision
 * that depends on time (a period's end) is acted on without any event at all.
 */
import {
  makeInformer,
  type KubeConfig,
  type KubernetesObject,
  type ListPromise,
} from '@kubernetes/client-node';
import type { Logger } from 'pino';

export interface WatchedResource<T extends KubernetesObject> {
  readonly path: string;
  readonly list: ListPromise<T>;
  readonly labelSelector?: string;
}

export interface RunningInformer<T extends KubernetesObject> {
  get(name: string, namespace: string): T | undefined;
  list(namespace?: string): readonly T[];
  /** Resolves once the first list has filled the cache. */
  readonly synced: Promise<void>;
  stop(): Promise<void>;
}

export function startInformer<T extends KubernetesObject>(
  config: KubeConfig,
  resource: WatchedResource<T>,
  options: { onChange: (object: T) => void; resyncMs?: number; logger: Logger },
): RunningInformer<T> {
  const informer = makeInformer<T>(config, resource.path, resource.list, resource.labelSelector);
  for (const verb of ['add', 'update', 'delete'] as const) informer.on(verb, options.onChange);
  let stopping = false;
  informer.on('error', (error: unknown) => {
    // ListWatch reconnects by itself, with a growing delay; this only says so (stopping aborts
    // the watch on purpose: nothing to say then).
    if (!stopping)
      options.logger.warn({ err: error, path: resource.path }, 'watch interrupted; reconnecting');
  });
  const synced = informer.start();
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
      clearInterval(resync);
      await informer.stop();
    },
  };
}
