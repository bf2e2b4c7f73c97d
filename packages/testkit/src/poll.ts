/**
 * Polls until a check holds, for tests that wait on a cluster, a server or a process: a timeout
 * names what was awaited, the check's last error and, when given, the state that explains it.
 * The timeout is a generous guard against a hang, never the wait a test expects to reach.
 */
export interface PollOptions {
  /** How long to wait in all (ms). */
  readonly ms: number;
  /** What to add to the timeout's message (a namespace's objects, daemons' logs). */
  readonly describe?: () => Promise<string>;
  /** The pause between checks (ms): 1 s suits a cluster; a test of one process polls faster. */
  readonly intervalMs?: number;
}

export async function pollUntil(
  what: string,
  check: () => Promise<boolean>,
  options: PollOptions,
): Promise<void> {
  const deadline = Date.now() + options.ms;
  let last: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? `\nlast error: ${last.message}` : '';
      const state = options.describe === undefined ? '' : `\n${await options.describe()}`;
      throw new Error(`timed out after ${options.ms / 1000} s waiting for ${what}${why}${state}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1_000));
  }
}
