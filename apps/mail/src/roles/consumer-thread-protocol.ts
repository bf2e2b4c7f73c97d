/**
 * The messages between the main thread and the consumer thread (consumer-thread.ts), and what
 * the thread starts from. Plain data: they cross by structured clone.
 */
import type { MailConfig } from '../config.ts';
import type { PushEvent, Topic } from '../core/events.ts';

/** The embedded stores' location: the thread opens its own SQLite connections to them. */
export interface EmbeddedLocation {
  readonly dataDir: string;
  readonly synchronous: 'full' | 'normal';
}

export interface ConsumerThreadData extends EmbeddedLocation {
  readonly config: MailConfig;
  readonly pollMs: number;
  /** false: the thread parses messages itself instead of on a parse thread of its own. */
  readonly parseThread: boolean;
}

/** One push event the thread asks the main thread to publish. */
export interface PublishRequest {
  readonly id: number;
  readonly userId: string;
  readonly event: PushEvent;
}

/** Its outcome: published, or the error. */
export interface PublishOutcome {
  readonly id: number;
  readonly error?: Error;
}

/**
 * Main → thread. Wake-ups and outcomes go as one message per event-loop turn, not one each
 * (a worker's batch is published in one turn, and a message across threads costs more than
 * its contents).
 */
export type ToConsumerThread =
  | { readonly type: 'ready'; readonly topics: readonly Topic[] }
  | { readonly type: 'published'; readonly outcomes: readonly PublishOutcome[] }
  | { readonly type: 'stop' };

/** Thread → main: the publishes of one turn in one message. */
export type FromConsumerThread =
  | { readonly type: 'ready' }
  | { readonly type: 'publish'; readonly requests: readonly PublishRequest[] }
  | { readonly type: 'error'; readonly error: unknown };
