/**
 * The win log's JetStream objects: the stream (a subject per period) and the KV bucket of match id
 * claims. The api creates them when missing; the operator creates them ahead of the api pods and
 * deletes them with the board. Both read the same settings (`winLogStreamOptions`), so the two
 * never make them differently.
 */
import {
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  StorageType,
  type StreamInfo,
} from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { readConfig } from '@tessera/kit';
import { distributedSettings } from '../distributed-settings.ts';

const DAY_MS = 86_400_000;

export interface WinLogStreamNames {
  /** Stream name (LB_WINS; tests use their own). */
  readonly stream: string;
  /** Subjects are `<subjectPrefix>.<period>` (lb.wins; tests use their own). */
  readonly subjectPrefix: string;
  /** KV bucket of match id claims (the idempotency record beyond the window). */
  readonly matchBucket: string;
}

export interface WinLogStreamOptions extends WinLogStreamNames {
  readonly replicas: number;
  /** JetStream's de-duplication window of a new stream (an existing stream keeps its own). */
  readonly duplicateWindowMs: number;
  /** How long a match id is remembered (0: for ever). */
  readonly matchIdTtlMs: number;
}

/** The options from a leaderboard process's environment (defaults for what it does not set). */
export function winLogStreamOptions(env: Record<string, string | undefined>): WinLogStreamOptions {
  const values = readConfig(distributedSettings, env);
  return {
    stream: values.LEADERBOARD_STREAM,
    subjectPrefix: values.LEADERBOARD_STREAM_SUBJECT,
    matchBucket: values.LEADERBOARD_MATCH_BUCKET,
    replicas: values.LEADERBOARD_STREAM_REPLICAS,
    duplicateWindowMs: values.LEADERBOARD_DEDUP_WINDOW_MS,
    matchIdTtlMs: values.LEADERBOARD_MATCH_ID_TTL_DAYS * DAY_MS,
  };
}

/**
 * Creates the stream and the match bucket when missing. An existing stream is kept as it is (its
 * own de-duplication window is the one to reason with), but it must hold the log's subjects.
 */
export async function ensureWinLogStream(
  nc: NatsConnection,
  options: WinLogStreamOptions,
): Promise<{ readonly info: StreamInfo; readonly kv: KV }> {
  const jsm = await jetstreamManager(nc);
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(options.stream);
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.code !== JetStreamApiCodes.StreamNotFound) throw error;
    info = await jsm.streams.add({
      name: options.stream,
      subjects: [`${options.subjectPrefix}.*`],
      storage: StorageType.File,
      num_replicas: options.replicas,
      duplicate_window: options.duplicateWindowMs * 1_000_000, // nanoseconds
      allow_direct: true,
    });
  }
  const subjects = info.config.subjects ?? [];
  if (!subjects.includes(`${options.subjectPrefix}.*`) && !subjects.includes(`${options.subjectPrefix}.>`)) {
    throw new Error(
      `stream ${options.stream} holds ${JSON.stringify(subjects)}, not ${options.subjectPrefix}.*: another stream name or subject prefix is needed`,
    );
  }
  const kv = await new Kvm(jetstream(nc)).create(options.matchBucket, {
    replicas: options.replicas,
    storage: StorageType.File,
    history: 1,
    ...(options.matchIdTtlMs > 0 ? { ttl: options.matchIdTtlMs } : {}),
  });
  return { info, kv };
}

/** Deletes the stream and the match bucket (a KV bucket is the stream `KV_<bucket>`); gone is fine. */
export async function deleteWinLogStream(nc: NatsConnection, names: WinLogStreamNames): Promise<void> {
  const jsm = await jetstreamManager(nc);
  for (const stream of [names.stream, `KV_${names.matchBucket}`]) {
    try {
      await jsm.streams.delete(stream);
    } catch (error) {
      if (!(error instanceof JetStreamApiError) || error.code !== JetStreamApiCodes.StreamNotFound)
        throw error;
    }
  }
}
