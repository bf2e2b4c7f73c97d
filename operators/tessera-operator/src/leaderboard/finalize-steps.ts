/** The reconcile's steps around deletion: the finalizer added first, and the cleanup it guards. */
import { names } from './children.ts';
import { conditions } from './conditions.ts';
import { DONE, event, reasonOf, set, STORE_RETRY_MS, writeStatus, type Step } from './reconcile-state.ts';

export const FINALIZER = 'tessera.dev/leaderboard-cleanup';
/** On a board, `"true"` keeps its data on the servers when it is deleted (the stream, keys, keyspace). */
export const KEEP_DATA_ANNOTATION = 'tessera.dev/keep-data';
/** How often a deleted board looks whether its pods are gone. */
const PODS_POLL_MS = 2_000;

/**
 * Deleting: remove what the board made (its children; then, once its pods are gone, its data on
 * the servers unless the board is annotated to keep it), then the finalizer, so the object can go.
 */
export const finalize: Step = async (ports, state) => {
  const { board } = state;
  if (board.metadata.deletionTimestamp === undefined) return undefined;
  if (!(board.metadata.finalizers ?? []).includes(FINALIZER)) return DONE;
  // Explicitly rather than through the garbage collector: when the board is gone, no archive Job
  // may still be running against its stores.
  const { namespace, name } = board.metadata;
  for (const job of ports.jobs.list(namespace, name)) {
    await ports.applier.delete({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: job.metadata?.name, namespace },
    });
  }
  await ports.applier.delete({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: names.budget(name), namespace },
  });
  await ports.applier.delete({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: names.service(name), namespace },
  });
  await ports.applier.delete({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: names.api(name), namespace },
  });
  if (board.metadata.annotations?.[KEEP_DATA_ANNOTATION] !== 'true') {
    // Only once no pod of the board is left: one still stopping could write its keys again.
    if ((await ports.pods.count(namespace, name)) > 0) return { requeueAfterMs: PODS_POLL_MS };
    try {
      await ports.stores.deleteData(board);
    } catch (error) {
      // The finalizer stays: the data is not left behind silently. The annotation lets it go.
      const value = conditions.dataNotDeleted(reasonOf(error));
      set(ports, state, value);
      await event(ports, state, 'Warning', value.reason, value.message);
      await writeStatus(ports, state);
      return { requeueAfterMs: STORE_RETRY_MS };
    }
  }
  await ports.boards.setFinalizers(
    board,
    (board.metadata.finalizers ?? []).filter((f) => f !== FINALIZER),
  );
  ports.logger.info({ leaderboard: `${namespace}/${name}` }, 'cleaned up; finalizer removed');
  return DONE;
};

/** A board gets the finalizer before anything is made for it. */
export const addFinalizer: Step = async (ports, state) => {
  const finalizers = state.board.metadata.finalizers ?? [];
  if (finalizers.includes(FINALIZER)) return undefined;
  await ports.boards.setFinalizers(state.board, [...finalizers, FINALIZER]);
  return DONE; // the write is an update event: the next pass starts from the new object
};
