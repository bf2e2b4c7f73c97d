/** Waiting in the end-to-end test's namespace: a timeout says what it waited for and what is there. */
import { pollUntil } from '@tessera/testkit';

/** kubectl bound to the test's namespace. */
export type NamespacedKubectl = (...args: string[]) => Promise<string>;

export type Until = (what: string, check: () => Promise<boolean>, ms?: number) => Promise<void>;

/** Polls `check` until true; on timeout fails with what it waited for and the namespace's state. */
export function untilIn(k: NamespacedKubectl): Until {
  return (what, check, ms = 180_000) =>
    pollUntil(what, check, {
      ms,
      describe: () => k('get', 'all,leaderboards,events', '--output', 'wide').catch((e: Error) => e.message),
    });
}
