/**
 * The messages between the main thread and the consumer thread (consumer-thread.ts), and what
 * the thread starts from. Plain data: they cross by structured clone.
 */
import type { MailConfig } from '../config.ts';
import type { Topic } from '../core/events.ts';
import type { PushRecord } from '../ports.ts';

/** The embedded stores' location: the thread opens its own SQLite connections to them. */
export interface EmbeddedLocation {
  readonly dataDir: string;
  readonly synchronous: 'full' | 'normal';
  /** The main opening's WAL restart flags (shared memory): the thread writes for its checkpointers. */
  readonly walRestarts?: Int32Array;
}

export interface ConsumerThreadData extends EmbeddedLocation {
  readonly config: MailConfig;
  readonly pollMs: number;
  /** false: the thread parses messages itself instead of on a parse thread of its own. */
  readonly parseThread: boolean;
}

/** A push record the thread committed to push.db, for the main thread's subscribers. */
export interface PushedRecord {
  readonly userId: string;
  readonly record: PushRecord;
}

/**
 * Main → thread: the wake-ups of one event-loop turn in one message, not one each (a message
 * across threads costs more than its contents).
 */
export type ToConsumerThread =
  { readonly type: 'ready'; readonly topics: readonly Topic[] } | { readonly type: 'stop' };

/** Thread → main: the push records committed during one turn in one message. */
export type FromConsumerThread =
  | { readonly type: 'ready' }
  | { readonly type: 'pushed'; readonly records: readonly PushedRecord[] }
  | { readonly type: 'error'; readonly error: unknown };
