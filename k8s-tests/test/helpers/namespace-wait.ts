/** Waiting in the end-to-end test's namespace: a timeout says what it waited for and what is there. */

/** kubectl bound to the test's namespace. */
export type NamespacedKubectl = (...args: string[]) => Promise<string>;

export type Until = (what: string, check: () => Promise<boolean>, ms?: number) => Promise<void>;

/** Polls `check` until true; on timeout fails with what it waited for and the namespace's state. */
export function untilIn(k: NamespacedKubectl): Until {
  return async (what, check, ms = 180_000) => {
    const deadline = Date.now() + ms;
    let last: unknown;
    for (;;) {
      try {
        if (await check()) return;
      } catch (error) {
        last = error;
      }
      if (Date.now() > deadline) {
        const state = await k('get', 'all,leaderboards,events', '--output', 'wide').catch(
          (e: Error) => e.message,
        );
        const why = last instanceof Error ? `\nlast error: ${last.message}` : '';
        throw new Error(`timed out after ${ms / 1000} s waiting for ${what}${why}\n${state}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  };
}
