/**
 * What the reconcile's steps share: the pass's state (the board, its resolved spec, the status
 * draft, the earliest requeue asked), the step type, and the helpers that fill the draft in and
 * write it.
 */
import { setCondition, type ConditionValue } from '../runtime/conditions.ts';
import type { EventType } from '../runtime/events.ts';
import type { ResolvedLeaderboardSpec } from './defaults.ts';
import type { LeaderboardPorts } from './ports.ts';
import type { Leaderboard, LeaderboardStatus } from './types.ts';

/** How soon a store that could not be reached is tried again. */
export const STORE_RETRY_MS = 15_000;

export interface ReconcileResult {
  readonly requeueAfterMs?: number;
}

export interface State {
  readonly board: Leaderboard;
  spec: ResolvedLeaderboardSpec;
  status: LeaderboardStatus;
  requeueAfterMs?: number;
}

/** `undefined`: go on with the next step; a result: this pass is over. */
export type StepOutcome = ReconcileResult | undefined;
export type Step = (ports: LeaderboardPorts, state: State) => Promise<StepOutcome>;

export const DONE: ReconcileResult = {};

export function requeue(state: State, ms: number): void {
  state.requeueAfterMs = state.requeueAfterMs === undefined ? ms : Math.min(state.requeueAfterMs, ms);
}

export function set(ports: LeaderboardPorts, state: State, value: ConditionValue): void {
  state.status.conditions = setCondition(
    state.status.conditions,
    value,
    new Date(ports.clock.now()),
    state.board.metadata.generation,
  );
}

export function event(
  ports: LeaderboardPorts,
  state: State,
  type: EventType,
  reason: string,
  message: string,
) {
  return ports.events.record(state.board, type, reason, message);
}

export const reasonOf = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** JSON with object keys sorted: the API server need not keep the order the status was written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export async function writeStatus(ports: LeaderboardPorts, state: State): Promise<void> {
  state.status.observedGeneration = state.board.metadata.generation;
  if (canonical(state.status) !== canonical(state.board.status ?? {})) {
    await ports.boards.writeStatus(state.board, state.status);
  }
}
