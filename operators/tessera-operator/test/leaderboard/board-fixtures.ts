/**
 * What reconcile.test.ts shares between its tests: the Leaderboard resource's coordinates, the
 * shape of a board as read back, and the Job controller's part (a Job marked complete).
 */
import { PatchStrategy, setHeaderOptions, type BatchV1Api, type V1Job } from '@kubernetes/client-node';

export const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
export const LEADERBOARDS = { group: 'tessera.dev', version: 'v1alpha1', plural: 'leaderboards' };

export interface Board {
  metadata: { uid: string; finalizers?: string[] };
  status?: {
    currentPeriod?: string;
    lastArchivedPeriod?: string;
    archivedPeriods?: string[];
    readyReplicas?: number;
    players?: number;
    observedGeneration?: number;
    conditions?: { type: string; status: string; reason: string }[];
  };
}

/** Marks a Job complete, as the Job controller would (the API server checks the status is coherent). */
export async function complete(batch: BatchV1Api, namespace: string, name: string): Promise<V1Job> {
  const now = new Date();
  return batch.patchNamespacedJobStatus(
    {
      namespace,
      name,
      body: {
        status: {
          startTime: now,
          completionTime: now,
          succeeded: 1,
          conditions: [
            { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: now, lastProbeTime: now },
            { type: 'Complete', status: 'True', lastTransitionTime: now, lastProbeTime: now },
          ],
        },
      },
    },
    mergePatch,
  );
}
