/**
 * The reconcile's steps that make the board's children match its spec (the spec checked, the win
 * log's stream and bucket, the api Deployment, Service and PodDisruptionBudget) and read back what
 * the api reports.
 */
import { apiDeployment, apiDisruptionBudget, apiService, names } from './children.ts';
import { conditions, STORES_READY } from './conditions.ts';
import { isTimeZone } from './period.ts';
import {
  DONE,
  event,
  reasonOf,
  requeue,
  set,
  STORE_RETRY_MS,
  writeStatus,
  type Step,
} from './reconcile-state.ts';

/** What the schema cannot check: the time zone must be one this runtime knows. */
export const checkSpec: Step = async (ports, state) => {
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
export const ensureWinLog: Step = async (ports, state) => {
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
export const applyApi: Step = async (ports, state) => {
  await ports.applier.apply(apiDeployment(state.board, state.spec));
  return undefined;
};

export const applyService: Step = async (ports, state) => {
  await ports.applier.apply(apiService(state.board));
  return undefined;
};

export const applyDisruptionBudget: Step = async (ports, state) => {
  await ports.applier.apply(apiDisruptionBudget(state.board));
  return undefined;
};

/** What the api reports: ready replicas (the Deployment's status) and players (its /metrics). */
export const observeApi: Step = async (ports, state) => {
  const { namespace, name } = state.board.metadata;
  const deployment = ports.deployments.get(namespace, names.api(name));
  const ready = deployment?.status?.readyReplicas ?? 0;
  state.status.readyReplicas = ready;
  set(ports, state, conditions.apiReady(ready, state.spec.api.replicas));
  const players = ready > 0 ? await ports.players(state.board) : undefined;
  if (players !== undefined) state.status.players = players;
  return undefined;
};
