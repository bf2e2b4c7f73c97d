/**
 * Who waits for a submitted item of a SqliteGroupCommit (group-commit.ts): a promise's resolvers
 * (`submit`), or a completion callback (`submitThen`), which saves the caller a promise and a
 * reaction per item and per stage after it (docs/benchmarks.md, session 25).
 */

/**
 * Called once: with the item's result (`error` undefined), or with why it was refused. Never
 * before `submitThen` returns. It must not throw: a throw is rethrown in a microtask (as an
 * uncaught exception), after the other waiters of its group were told.
 */
export type Done<Result> = (error: unknown, result?: Result) => void;

interface Resolvers<Result> {
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

export type Waiter<Result> = Resolvers<Result> | Done<Result>;

export function resolveWaiter<Result>(waiter: Waiter<Result>, result: Result): void {
  if (typeof waiter !== 'function') return waiter.resolve(result);
  try {
    waiter(undefined, result);
  } catch (error) {
    rethrowLater(error);
  }
}

export function rejectWaiter<Result>(waiter: Waiter<Result>, error: unknown): void {
  if (typeof waiter !== 'function') return waiter.reject(error);
  try {
    // `undefined` means success to a callback: a thrown undefined is still a failure.
    waiter(error ?? new Error('group commit failed'));
  } catch (thrown) {
    rethrowLater(thrown);
  }
}

/** A refusal at submit time, told as late as a promise's rejection would be. */
export function failLater<Result>(done: Done<Result>, error: Error): void {
  queueMicrotask(() => done(error));
}

function rethrowLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}
