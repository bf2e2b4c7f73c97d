/**
 * Reconciling one Leaderboard: a flat list of small steps, each idempotent (run twice, it changes
 * nothing the second time), run in order until one ends the pass. The status is written once, at
 * the end, from the draft the steps filled in. The result tells the queue when to look again: at
 * the period's end at the latest, so a month closes on time even when nothing changes. The steps
 * live by concern: finalize-steps.ts, desired-state-steps.ts, archive-steps.ts.
 */
import { isConflict } from '../runtime/apply.ts';
import { applyRetention, followArchives, rollOver } from './archive-steps.ts';
import { withDefaults } from './defaults.ts';
import {
  applyApi,
  applyDisruptionBudget,
  applyService,
  checkSpec,
  ensureWinLog,
  observeApi,
} from './desired-state-steps.ts';
import { addFinalizer, finalize } from './finalize-steps.ts';
import type { LeaderboardPorts } from './ports.ts';
import { DONE, writeStatus, type ReconcileResult, type State, type Step } from './reconcile-state.ts';

/** How soon a pass that lost a write conflict runs again. */
const CONFLICT_RETRY_MS = 100;

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
