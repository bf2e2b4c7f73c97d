/** The Leaderboard's ports on client-node: the API server for writes, informer caches for reads. */
import {
  BatchV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1Deployment,
  type V1Job,
} from '@kubernetes/client-node';
import { isConflict, isNotFound } from '../runtime/apply.ts';
import { GROUP, VERSION } from '../crd/define.ts';
import type { RunningInformer } from '../runtime/informer.ts';
import { LEADERBOARD_LABEL, names } from './children.ts';
import type { LeaderboardPorts } from './ports.ts';
import type { Leaderboard } from './types.ts';

export const LEADERBOARDS = { group: GROUP, version: VERSION, plural: 'leaderboards' } as const;

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export function boardsApi(config: KubeConfig): LeaderboardPorts['boards'] {
  const custom = config.makeApiClient(CustomObjectsApi);
  return {
    async get(namespace, name) {
      try {
        return (await custom.getNamespacedCustomObject({ ...LEADERBOARDS, namespace, name })) as Leaderboard;
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    async writeStatus(board, status) {
      const { namespace, name, resourceVersion } = board.metadata;
      await custom.patchNamespacedCustomObjectStatus(
        // The resourceVersion makes the write conditional: a status computed from an old object
        // is refused (409) and the queue runs the board again.
        { ...LEADERBOARDS, namespace, name, body: { metadata: { resourceVersion }, status } },
        mergePatch,
      );
    },
    async setFinalizers(board, finalizers) {
      const { namespace, name, resourceVersion } = board.metadata;
      return (await custom.patchNamespacedCustomObject(
        { ...LEADERBOARDS, namespace, name, body: { metadata: { resourceVersion, finalizers } } },
        mergePatch,
      )) as Leaderboard;
    },
  };
}

export function jobsApi(config: KubeConfig, cache: RunningInformer<V1Job>): LeaderboardPorts['jobs'] {
  const batch = config.makeApiClient(BatchV1Api);
  return {
    list: (namespace, board) =>
      cache.list(namespace).filter((job) => job.metadata?.labels?.[LEADERBOARD_LABEL] === board),
    async create(job) {
      try {
        await batch.createNamespacedJob({ namespace: job.metadata?.namespace ?? '', body: job });
        return true;
      } catch (error) {
        if (isConflict(error)) return false;
        throw error;
      }
    },
  };
}

export function deploymentsApi(cache: RunningInformer<V1Deployment>): LeaderboardPorts['deployments'] {
  return { get: (namespace, name) => cache.get(name, namespace) };
}

/** The board's pods (api replicas, archive Jobs' pods), counted through the API. */
export function podsApi(config: KubeConfig): LeaderboardPorts['pods'] {
  const core = config.makeApiClient(CoreV1Api);
  return {
    async count(namespace, board) {
      const list = await core.listNamespacedPod({
        namespace,
        labelSelector: `${LEADERBOARD_LABEL}=${board}`,
      });
      return list.items.length;
    },
  };
}

/** The `leaderboard_players` gauge from the api Service's /metrics (in-cluster DNS). */
export function playersFromMetrics(timeoutMs = 2_000): LeaderboardPorts['players'] {
  return async (board) => {
    const { namespace, name } = board.metadata;
    try {
      const response = await fetch(`http://${names.service(name)}.${namespace}.svc/metrics`, {
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) return undefined;
      return parsePlayers(await response.text());
    } catch {
      return undefined;
    }
  };
}

export function parsePlayers(metrics: string): number | undefined {
  const line = /^leaderboard_players(?:\{[^}]*\})? (\d+(?:\.\d+)?(?:e\+?\d+)?)$/m.exec(metrics);
  return line?.[1] === undefined ? undefined : Math.round(Number(line[1]));
}
