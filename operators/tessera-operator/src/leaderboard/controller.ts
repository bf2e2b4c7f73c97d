/**
 * The Leaderboard controller: informers on Leaderboards and on the Jobs and Deployments the
 * operator made (a change to a child queues its board), one work queue, and reconcile.
 */
import {
  AppsV1Api,
  BatchV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  type V1Deployment,
  type V1Job,
} from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { applier } from '../runtime/apply.ts';
import type { Clock } from '../runtime/clock.ts';
import type { EventRecorder } from '../runtime/events.ts';
import { startInformer, type RunningInformer } from '../runtime/informer.ts';
import type { OperatorMetrics } from '../runtime/metrics.ts';
import { WorkQueue } from '../runtime/work-queue.ts';
import { boardsApi, deploymentsApi, jobsApi, LEADERBOARDS, playersFromMetrics, podsApi } from './api.ts';
import { LEADERBOARD_LABEL, MANAGED_SELECTOR } from './children.ts';
import type { LeaderboardPorts } from './ports.ts';
import { reconcileLeaderboard } from './reconcile.ts';
import { boardStores } from './stores.ts';
import type { Leaderboard } from './types.ts';

export interface LeaderboardControllerOptions {
  readonly config: KubeConfig;
  /** One namespace, or every namespace when undefined. */
  readonly namespace?: string;
  readonly clock: Clock;
  readonly image: string;
  readonly events: EventRecorder;
  readonly metrics: OperatorMetrics;
  readonly logger: Logger;
  readonly resyncMs: number;
  readonly workers?: number;
  readonly players?: LeaderboardPorts['players'];
  /** The board's data on its servers (tests may give their own). */
  readonly stores?: LeaderboardPorts['stores'];
}

export interface RunningController {
  /** Resolves once every informer has listed. */
  readonly synced: Promise<void>;
  stop(): Promise<void>;
}

const KIND = 'Leaderboard';

export function startLeaderboardController(options: LeaderboardControllerOptions): RunningController {
  const { config, namespace, logger, metrics } = options;
  const scope = namespace === undefined ? '' : `/namespaces/${namespace}`;
  const custom = config.makeApiClient(CustomObjectsApi);
  const batch = config.makeApiClient(BatchV1Api);
  const apps = config.makeApiClient(AppsV1Api);

  const queue = new WorkQueue(
    async (key) => {
      const [ns = '', name = ''] = key.split('/');
      return reconcileLeaderboard(ports, ns, name);
    },
    {
      workers: options.workers ?? 2,
      onResult(key, { error, durationMs, retryInMs }) {
        metrics.reconcileSeconds.labels(KIND).observe(durationMs / 1000);
        metrics.reconciles
          .labels(KIND, error === undefined ? (retryInMs === undefined ? 'success' : 'requeue') : 'error')
          .inc();
        metrics.queueDepth.labels(KIND).set(queue.depth);
        if (error !== undefined)
          logger.warn({ err: error, leaderboard: key, retryInMs }, 'reconcile failed; retrying');
        else logger.debug({ leaderboard: key, durationMs, retryInMs }, 'reconciled');
      },
    },
  );
  const enqueue = (object: KubernetesObject) => {
    queue.add(`${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`);
    metrics.queueDepth.labels(KIND).set(queue.depth);
  };
  const enqueueOwner = (object: KubernetesObject) => {
    const board = object.metadata?.labels?.[LEADERBOARD_LABEL];
    if (board !== undefined) queue.add(`${object.metadata?.namespace ?? ''}/${board}`);
  };

  const list =
    <T extends KubernetesObject>(call: () => Promise<unknown>) =>
    () =>
      call() as Promise<KubernetesListObject<T>>;
  const boards: RunningInformer<Leaderboard> = startInformer<Leaderboard>(
    config,
    {
      path: `/apis/${LEADERBOARDS.group}/${LEADERBOARDS.version}${scope}/${LEADERBOARDS.plural}`,
      list: list(() =>
        namespace === undefined
          ? custom.listClusterCustomObject(LEADERBOARDS)
          : custom.listNamespacedCustomObject({ ...LEADERBOARDS, namespace }),
      ),
    },
    { onChange: enqueue, resyncMs: options.resyncMs, logger },
  );
  const jobs = startInformer<V1Job>(
    config,
    {
      path: `/apis/batch/v1${scope}/jobs`,
      labelSelector: MANAGED_SELECTOR,
      list: list(() =>
        namespace === undefined
          ? batch.listJobForAllNamespaces({ labelSelector: MANAGED_SELECTOR })
          : batch.listNamespacedJob({ namespace, labelSelector: MANAGED_SELECTOR }),
      ),
    },
    { onChange: enqueueOwner, logger },
  );
  const deployments = startInformer<V1Deployment>(
    config,
    {
      path: `/apis/apps/v1${scope}/deployments`,
      labelSelector: MANAGED_SELECTOR,
      list: list(() =>
        namespace === undefined
          ? apps.listDeploymentForAllNamespaces({ labelSelector: MANAGED_SELECTOR })
          : apps.listNamespacedDeployment({ namespace, labelSelector: MANAGED_SELECTOR }),
      ),
    },
    { onChange: enqueueOwner, logger },
  );

  const ports: LeaderboardPorts = {
    clock: options.clock,
    image: options.image,
    applier: applier(config),
    boards: boardsApi(config),
    jobs: jobsApi(config, jobs),
    deployments: deploymentsApi(deployments),
    pods: podsApi(config),
    stores: options.stores ?? boardStores(config),
    events: options.events,
    players: options.players ?? playersFromMetrics(),
    logger,
  };

  return {
    synced: Promise.all([boards.synced, jobs.synced, deployments.synced]).then(() => undefined),
    async stop() {
      await Promise.all([boards.stop(), jobs.stop(), deployments.stop()]);
      await queue.stop();
    },
  };
}
