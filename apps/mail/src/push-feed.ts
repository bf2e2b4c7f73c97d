/**
 * One user's live event feed, as a WebSocket carries it (docs/mail-events.md): the backlog after
 * `since`, then every new event, in seq order, with no gap and no duplicate.
 *
 * The backlog table is the only source of events. The in-process subscription and a periodic
 * timer only wake the feed up to read it again after the last seq sent: an event that another
 * process wrote (a worker role of its own) is never emitted here, and one written by this
 * process could otherwise overtake an older one from elsewhere.
 */
import type { Push, PushRecord } from './ports.ts';

export interface PushFeedOptions {
  /** The last seq the client has seen; undefined: only events from now on. */
  readonly since?: number;
  /** How often the backlog is read without a wake-up (events from other processes). */
  readonly catchUpMs: number;
  readonly send: (record: PushRecord) => void;
  readonly onError: (error: unknown) => void;
}

export interface PushFeed {
  close(): void;
}

const PAGE = 100;

export function openPushFeed(push: Push, userId: string, options: PushFeedOptions): PushFeed {
  let last = options.since;
  let closed = false;
  let reading = false;
  let again = false;

  const read = async (): Promise<void> => {
    last ??= await push.latest(userId);
    for (;;) {
      const records = await push.poll(userId, last, { waitMs: 0, limit: PAGE });
      for (const record of records) {
        if (closed) return;
        if (record.seq <= last) continue;
        last = record.seq;
        options.send(record);
      }
      if (records.length < PAGE) return;
    }
  };

  // Wake-ups while a read runs are folded into one more read after it.
  const wake = (): void => {
    if (closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    read()
      .catch(options.onError)
      .finally(() => {
        reading = false;
        if (again) {
          again = false;
          wake();
        }
      });
  };

  const unsubscribe = push.subscribe(userId, wake);
  const timer = setInterval(wake, options.catchUpMs);
  timer.unref();
  wake();
  return {
    close() {
      closed = true;
      clearInterval(timer);
      unsubscribe();
    },
  };
}
