/**
 * Reconciling one Leaderboard: a flat list of small steps, each idempotent (run twice, it changes
 * nothing the second time), run in order until one ends the pass. The status is written once, at
 * the end, from the draft the steps filled in. The result tells the queue when to look again: at
 * the period's end at the latest, so a month closes on time even when nothing changes.
 */
import type { V1Job } from '@kubernetes/client-node';
import { isConflict } from '../runtime/apply.ts';
import { setCondition, type ConditionValue } from '../runtime/conditions.ts';
import type { EventType } from '../runtime/events.ts';
import {
  apiDeployment,
  apiDisruptionBudget,
  apiService,
  archiveJob,
  names,
  PERIOD_LABEL,
} from './children.ts';
import { conditions, STORES_READY } from './conditions.ts';
import { withDefaults, type ResolvedLeaderboardSpec } from './defaults.ts';
import { comparePeriodIds, finishedPeriods, isTimeZone, periodEnd, periodId } from './period.ts';
import type { LeaderboardPorts } from './ports.ts';
import type { Leaderboard, LeaderboardStatus } from './types.ts';

export const FINALIZER = 'tessera.dev/leaderboard-cleanup';
/** On a board, `"true"` keeps its data on the servers when it is deleted (the stream, keys, keyspace). */
export const KEEP_DATA_ANNOTATION = 'tessera.dev/keep-data';
/** How soon a pass that lost a write conflict runs again. */
const CONFLICT_RETRY_MS = 100;
/** How often a running archive Job is looked at even without a watch event. */
const ARCHIVE_POLL_MS = 30_000;
/** How soon a store that could not be reached is tried again. */
const STORE_RETRY_MS = 15_000;
/** How often a deleted board looks whether its pods are gone. */
const PODS_POLL_MS = 2_000;

export interface ReconcileResult {
  readonly requeueAfterMs?: number;
}

interface State {
  readonly board: Leaderboard;
  spec: ResolvedLeaderboardSpec;
  status: LeaderboardStatus;
  requeueAfterMs?: number;
}

/** `undefined`: go on with the next step; a result: this pass is over. */
type StepOutcome = ReconcileResult | undefined;
type Step = (ports: LeaderboardPorts, state: State) => Promise<StepOutcome>;

const DONE: ReconcileResult = {};

function requeue(state: State, ms: number): void {
  state.requeueAfterMs = state.requeueAfterMs === undefined ? ms : Math.min(state.requeueAfterMs, ms);
}

function set(ports: LeaderboardPorts, state: State, value: ConditionValue): void {
  state.status.conditions = setCondition(
    state.status.conditions,
    value,
    new Date(ports.clock.now()),
    state.board.metadata.generation,
  );
}

function event(ports: LeaderboardPorts, state: State, type: EventType, reason: string, message: string) {
  return ports.events.record(state.board, type, reason, message);
}

function jobFinished(job: V1Job): { ok: boolean; why: string } | undefined {
  for (const c of job.status?.conditions ?? []) {
    if (c.status !== 'True') continue;
    if (c.type === 'Complete') return { ok: true, why: '' };
    if (c.type === 'Failed') return { ok: false, why: c.message ?? c.reason ?? 'failed' };
  }
  return undefined;
}

const periodOfJob = (job: V1Job) => job.metadata?.labels?.[PERIOD_LABEL] ?? '';

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

// The steps, in order.

/**
 * Deleting: remove what the board made (its children; then, once its pods are gone, its data on
 * the servers unless the board is annotated to keep it), then the finalizer, so the object can go.
 */
const finalize: Step = async (ports, state) => {
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
const addFinalizer: Step = async (ports, state) => {
  const finalizers = state.board.metadata.finalizers ?? [];
  if (finalizers.includes(FINALIZER)) return undefined;
  await ports.boards.setFinalizers(state.board, [...finalizers, FINALIZER]);
  return DONE; // the write is an update event: the next pass starts from the new object
};

/** What the schema cannot check: the time zone must be one this runtime knows. */
const checkSpec: Step = async (ports, state) => {
  if (isTimeZone(state.spec.timezone)) {
    set(ports, state, conditions.specValid());
    return undefined;
  }
  const value = conditions.unknownTimeZone(state.spec.timezone);
  set(ports, state, value);
  await event(ports, state, 'Warning', value.reason, value.message);
  await writeStatus(ports, state);
  return DONE; // nothing is made from a spec that is wrong; an edit brings the board back
};

/**
 * The win log's stream and match bucket on the board's NATS, made before any api pod starts (the
 * api makes them too when missing, with the same settings). A NATS that cannot be reached is a
 * condition and an Event, and a later pass tries again; the rest of the board is reconciled
 * anyway (its pods wait for NATS on their own).
 */
const ensureWinLog: Step = async (ports, state) => {
  try {
    if (await ports.stores.ensureWinLog(state.board)) set(ports, state, conditions.storesReady());
  } catch (error) {
    const value = conditions.storesUnavailable(reasonOf(error));
    const before = state.status.conditions?.find((c) => c.type === STORES_READY);
    set(ports, state, value);
    if (before?.reason !== value.reason) await event(ports, state, 'Warning', value.reason, value.message);
    requeue(state, STORE_RETRY_MS);
  }
  return undefined;
};

/** The api Deployment: `tessera run leaderboard api`, settings from the spec, URLs from Secrets. */
const applyApi: Step = async (ports, state) => {
  await ports.applier.apply(apiDeployment(state.board, state.spec));
  return undefined;
};

const applyService: Step = async (ports, state) => {
  await ports.applier.apply(apiService(state.board));
  return undefined;
};

const applyDisruptionBudget: Step = async (ports, state) => {
  await ports.applier.apply(apiDisruptionBudget(state.board));
  return undefined;
};

/**
 * The period boundary: when the clock has left the recorded period, that period is finished (and
 * any after it, when nobody looked across several boundaries), and an archive Job is created for
 * each (creating it again finds it there). Then the current period is recorded, and the next pass
 * is asked for at its end.
 */
const rollOver: Step = async (ports, state) => {
  const now = ports.clock.now();
  const { period, timezone } = state.spec;
  const current = periodId(period, timezone, now);
  const recorded = state.status.currentPeriod;
  const finished =
    recorded !== undefined && comparePeriodIds(recorded, current) < 0
      ? // No more than the retention: older archives would be dropped at once.
        finishedPeriods(period, timezone, recorded, now, state.spec.retention)
      : [];
  for (const done of finished) {
    const created = await ports.jobs.create(archiveJob(state.board, state.spec, done));
    if (created) {
      await event(
        ports,
        state,
        'Normal',
        'ArchiveStarted',
        `${done} ended; archiving it (Job ${names.archive(state.board.metadata.name, done)})`,
      );
    }
    set(ports, state, conditions.archiving(done));
  }
  state.status.currentPeriod = current;
  requeue(state, periodEnd(period, timezone, now) - now);
  return undefined;
};

/** Follows the archive Jobs: a finished one is recorded once (status and an Event). */
const followArchives: Step = async (ports, state) => {
  const { namespace, name } = state.board.metadata;
  const archived = new Set(state.status.archivedPeriods ?? []);
  const jobs = [...ports.jobs.list(namespace, name)].sort((a, b) =>
    comparePeriodIds(periodOfJob(a), periodOfJob(b)),
  );
  for (const job of jobs) {
    const period = periodOfJob(job);
    const finished = jobFinished(job);
    if (finished === undefined) {
      requeue(state, ARCHIVE_POLL_MS);
      continue;
    }
    if (archived.has(period)) continue;
    if (finished.ok) {
      archived.add(period);
      const last = state.status.lastArchivedPeriod;
      if (last === undefined || comparePeriodIds(last, period) < 0) state.status.lastArchivedPeriod = period;
      set(ports, state, conditions.archived(period));
      await event(ports, state, 'Normal', 'Archived', `${period} is archived`);
    } else if (state.status.conditions?.find((c) => c.type === 'Archived')?.reason !== 'ArchiveFailed') {
      const value = conditions.archiveFailed(period, finished.why);
      set(ports, state, value);
      await event(ports, state, 'Warning', value.reason, value.message);
    }
  }
  state.status.archivedPeriods = [...archived].sort(comparePeriodIds);
  return undefined;
};

/**
 * Retention: the newest `retention` archives are kept. The archive command drops older archived
 * data itself (`--keep`); here the operator forgets them: their Jobs go, and the status list.
 */
const applyRetention: Step = async (ports, state) => {
  const kept = state.status.archivedPeriods ?? [];
  const excess = kept.length - state.spec.retention;
  if (excess <= 0) return undefined;
  const { namespace, name } = state.board.metadata;
  for (const period of kept.slice(0, excess)) {
    await ports.applier.delete({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: names.archive(name, period), namespace },
    });
    await event(
      ports,
      state,
      'Normal',
      'ArchiveExpired',
      `${period} is past the retention of ${state.spec.retention} periods`,
    );
  }
  state.status.archivedPeriods = kept.slice(excess);
  return undefined;
};

/** What the api reports: ready replicas (the Deployment's status) and players (its /metrics). */
const observeApi: Step = async (ports, state) => {
  const { namespace, name } = state.board.metadata;
  const deployment = ports.deployments.get(namespace, names.api(name));
  const ready = deployment?.status?.readyReplicas ?? 0;
  state.status.readyReplicas = ready;
  set(ports, state, conditions.apiReady(ready, state.spec.api.replicas));
  const players = ready > 0 ? await ports.players(state.board) : undefined;
  if (players !== undefined) state.status.players = players;
  return undefined;
};

/** JSON with object keys sorted: the API server need not keep the order the status was written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

async function writeStatus(ports: LeaderboardPorts, state: State): Promise<void> {
  state.status.observedGeneration = state.board.metadata.generation;
  if (canonical(state.status) !== canonical(state.board.status ?? {})) {
    await ports.boards.writeStatus(state.board, state.status);
  }
}

/** The status, written once, only when it changed. */
const updateStatus: Step = async (ports, state) => {
  await writeStatus(ports, state);
  return { ...(state.requeueAfterMs === undefined ? {} : { requeueAfterMs: state.requeueAfterMs }) };
};

export const STEPS: readonly [string, Step][] = [
  ['finalize', finalize],
  ['addFinalizer', addFinalizer],
  ['checkSpec', checkSpec],
  ['ensureWinLog', ensureWinLog],
  ['applyApi', applyApi],
  ['applyService', applyService],
  ['applyDisruptionBudget', applyDisruptionBudget],
  ['rollOver', rollOver],
  ['followArchives', followArchives],
  ['applyRetention', applyRetention],
  ['observeApi', observeApi],
  ['updateStatus', updateStatus],
];

/** Reconciles the board `namespace/name` (gone: nothing to do). */
export async function reconcileLeaderboard(
  ports: LeaderboardPorts,
  namespace: string,
  name: string,
): Promise<ReconcileResult> {
  const board = await ports.boards.get(namespace, name);
  if (board === undefined) return DONE;
  const state: State = {
    board,
    spec: withDefaults(board.spec, ports.image),
    status: structuredClone(board.status ?? {}),
  };
  for (const [stepName, step] of STEPS) {
    try {
      const outcome = await step(ports, state);
      if (outcome !== undefined) return outcome;
    } catch (error) {
      // A write conditional on the resourceVersion read lost to a newer version of the board
      // (an edit, a deletion): not a failure, the pass is simply run again on the new one.
      if (isConflict(error)) {
        ports.logger.debug(
          { leaderboard: `${namespace}/${name}`, step: stepName },
          'conflict; running again',
        );
        return { requeueAfterMs: CONFLICT_RETRY_MS };
      }
      throw new ReconcileError(`${stepName} failed for leaderboard ${namespace}/${name}`, { cause: error });
    }
  }
  return DONE;
}

/** A step's failure, naming the step; the queue retries with back-off. */
export class ReconcileError extends Error {
  override readonly name = 'ReconcileError';
}
