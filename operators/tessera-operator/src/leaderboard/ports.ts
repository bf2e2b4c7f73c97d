/** What the Leaderboard's reconcile reads and writes, as small ports (client-node adapters in api.ts). */
import type { V1Deployment, V1Job } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { Applier } from '../runtime/apply.ts';
import type { Clock } from '../runtime/clock.ts';
import type { EventRecorder } from '../runtime/events.ts';
import type { Leaderboard, LeaderboardStatus } from './types.ts';

export interface LeaderboardPorts {
  readonly clock: Clock;
  /** The image when the spec names none (the operator's TESSERA_IMAGE). */
  readonly image: string;
  readonly applier: Applier;
  readonly boards: {
    get(namespace: string, name: string): Promise<Leaderboard | undefined>;
    /** Replaces the status subresource (conflicts are the queue's to retry). */
    writeStatus(board: Leaderboard, status: LeaderboardStatus): Promise<void>;
    /** Writes metadata.finalizers, guarded by the board's resourceVersion. */
    setFinalizers(board: Leaderboard, finalizers: string[]): Promise<Leaderboard>;
  };
  readonly jobs: {
    /** The board's archive Jobs (from the informer's cache). */
    list(namespace: string, board: string): readonly V1Job[];
    /** Creates a Job; false when one of that name exists already. */
    create(job: V1Job): Promise<boolean>;
  };
  readonly deployments: {
    get(namespace: string, name: string): V1Deployment | undefined;
  };
  readonly pods: {
    /** How many pods of the board exist (running or stopping). */
    count(namespace: string, board: string): Promise<number>;
  };
  /** What the board keeps on its backing servers (stores.ts). */
  readonly stores: {
    /** Creates the win log's stream and match bucket when missing; false for a board without NATS. */
    ensureWinLog(board: Leaderboard): Promise<boolean>;
    /** Deletes the stream and bucket, the Redis keys under the board's prefix and its keyspace. */
    deleteData(board: Leaderboard): Promise<void>;
  };
  readonly events: EventRecorder;
  /** Players in the live rankings, read from the api's /metrics; undefined when it cannot be asked. */
  readonly players: (board: Leaderboard) => Promise<number | undefined>;
  readonly logger: Logger;
}
