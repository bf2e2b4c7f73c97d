/**
 * The Leaderboard's conditions, prebuilt: reconcile picks one and sets it through
 * `setCondition` (runtime/conditions.ts), never by hand.
 * - Ready: the api has its replicas ready.
 * - SpecValid: what the schema cannot check (the time zone is one the runtime knows).
 * - Archived: the last period's archive Job has finished (False while one runs or failed).
 * - StoresReady: the win log's stream exists on the board's NATS (boards with NATS only).
 * - DataDeleted: while a deleted board waits for its stores' data to be removed.
 */
import type { ConditionValue } from '../runtime/conditions.ts';

export const READY = 'Ready';
export const SPEC_VALID = 'SpecValid';
export const ARCHIVED = 'Archived';
export const STORES_READY = 'StoresReady';
export const DATA_DELETED = 'DataDeleted';

export const conditions = {
  apiReady: (ready: number, wanted: number): ConditionValue =>
    ready >= wanted
      ? {
          type: READY,
          status: 'True',
          reason: 'ReplicasReady',
          message: `${ready}/${wanted} api replicas ready`,
        }
      : {
          type: READY,
          status: 'False',
          reason: 'ReplicasNotReady',
          message: `${ready}/${wanted} api replicas ready`,
        },
  specValid: (): ConditionValue => ({
    type: SPEC_VALID,
    status: 'True',
    reason: 'Valid',
    message: 'the spec is valid',
  }),
  unknownTimeZone: (zone: string): ConditionValue => ({
    type: SPEC_VALID,
    status: 'False',
    reason: 'UnknownTimeZone',
    message: `spec.timezone "${zone}" is not a time zone this runtime knows (an IANA name such as Europe/Paris)`,
  }),
  archiving: (period: string): ConditionValue => ({
    type: ARCHIVED,
    status: 'False',
    reason: 'Archiving',
    message: `the archive of ${period} is running`,
  }),
  archived: (period: string): ConditionValue => ({
    type: ARCHIVED,
    status: 'True',
    reason: 'Archived',
    message: `${period} is archived`,
  }),
  archiveFailed: (period: string, why: string): ConditionValue => ({
    type: ARCHIVED,
    status: 'False',
    reason: 'ArchiveFailed',
    message: `the archive of ${period} failed: ${why}`,
  }),
  storesReady: (): ConditionValue => ({
    type: STORES_READY,
    status: 'True',
    reason: 'StreamReady',
    message: 'the win log stream and its match bucket exist on NATS',
  }),
  storesUnavailable: (why: string): ConditionValue => ({
    type: STORES_READY,
    status: 'False',
    reason: 'StoreUnavailable',
    message: `the win log stream could not be made: ${why}`,
  }),
  dataNotDeleted: (why: string): ConditionValue => ({
    type: DATA_DELETED,
    status: 'False',
    reason: 'StoreUnavailable',
    message: `the board's data could not be deleted yet (retrying): ${why}`,
  }),
};
