/**
 * `tessera-operator cleanup`: deletes the Leaderboards a Helm release made and waits until they
 * are gone, while the operator still runs to finalize them. The chart runs it as a pre-delete hook:
 * `helm uninstall` removes the operator and the boards at once otherwise, and a board whose
 * finalizer nobody runs any more stays forever (and keeps its namespace from being deleted).
 */
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { LEADERBOARDS } from './leaderboard/api.ts';
import { isNotFound } from './runtime/apply.ts';

export interface CleanupOptions {
  readonly config: KubeConfig;
  readonly namespace: string;
  /** Which boards: e.g. `app.kubernetes.io/instance=<release>`. */
  readonly labelSelector: string;
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/** Resolves with how many boards were deleted; rejects when they are not gone in time. */
export async function cleanup(options: CleanupOptions): Promise<number> {
  const custom = options.config.makeApiClient(CustomObjectsApi);
  const { namespace, labelSelector, logger } = options;
  const list = async () =>
    (
      (await custom.listNamespacedCustomObject({ ...LEADERBOARDS, namespace, labelSelector })) as {
        items: { metadata: { name: string } }[];
      }
    ).items.map((item) => item.metadata.name);
  const names = await list();
  for (const name of names) {
    try {
      await custom.deleteNamespacedCustomObject({ ...LEADERBOARDS, namespace, name });
      logger.info({ leaderboard: `${namespace}/${name}` }, 'deleting');
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const left = await list();
    if (left.length === 0) return names.length;
    if (Date.now() > deadline) {
      throw new Error(
        `leaderboards still there after ${options.timeoutMs} ms (is the operator running to finalize them?): ${left.join(', ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
