/**
 * A gate on one command of a store's connections (sharded-page-reads.test.ts): past the first
 * `passing`, calls of `command` through any connection it wraps wait until the test opens it, so
 * a test runs writes at an exact point of a read (after its looks, before its page) without a flag
 * in the code under test. Once open, every call goes straight through.
 */
import type { Redis } from 'ioredis';

export interface CommandGate {
  /** The connection with `command` held while the gate is shut. */
  wrap(redis: Redis): Redis;
  /** Resolves when a first call waits at the gate. */
  readonly reached: Promise<void>;
  open(): void;
  /** Calls of `command` so far, held or not. */
  calls(): number;
}

export function commandGate(command: keyof Redis, passing = 0): CommandGate {
  let calls = 0;
  let reach = (): void => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let shut = true;
  return {
    reached,
    calls: () => calls,
    open: () => {
      shut = false;
      open();
    },
    wrap: (redis) =>
      new Proxy(redis, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (typeof value !== 'function') return value;
          const call = (...args: unknown[]): unknown =>
            (value as (...a: unknown[]) => unknown).apply(target, args);
          if (property !== command) return call;
          return async (...args: unknown[]): Promise<unknown> => {
            if (++calls > passing && shut) {
              reach();
              await opened;
            }
            return call(...args);
          };
        },
      }),
  };
}
