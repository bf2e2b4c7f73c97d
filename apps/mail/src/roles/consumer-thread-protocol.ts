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

/** Main → thread. */
export type ToConsumerThread =
  | { readonly type: 'ready'; readonly topic: Topic }
  | { readonly type: 'published'; readonly id: number; readonly error?: Error }
  | { readonly type: 'stop' };

/** Thread → main. */
export type FromConsumerThread =
  | { readonly type: 'ready' }
  | { readonly type: 'publish'; readonly id: number; readonly userId: string; readonly event: PushEvent }
  | { readonly type: 'error'; readonly error: unknown };
