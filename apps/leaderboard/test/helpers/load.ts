/**
 * Load for the fault tests: wins POSTed by a few workers, each retried with the same match_id
 * until acknowledged (bounded), every failed answer kept, so a test can check what a client saw
 * while a server was down and that every acknowledged win counts exactly once.
 */
import { mintToken } from '@tessera/kit';

export interface FailedAnswer {
  readonly status: number;
  readonly code: string | undefined;
  readonly retryAfter: string | null;
}

export interface LoadResult {
  /** Points acknowledged per user (every win of the load is acknowledged, or the load throws). */
  readonly expected: ReadonlyMap<string, number>;
  readonly acknowledged: number;
  /** Every non-200 answer (or a network failure as status 0). */
  readonly failures: readonly FailedAnswer[];
}

export interface LoadOptions {
  /** Where each request goes (a worker's index and the attempt pick one, e.g. round robin). */
  readonly urls: readonly string[];
  readonly secret: string;
  readonly wins: number;
  readonly users: number;
  readonly workers: number;
  /** Unique per test: match ids are `<prefix>-<n>`. */
  readonly prefix: string;
  /** Longest a win may take to be acknowledged, retries included. */
  readonly winDeadlineMs: number;
  /**
   * Called after each acknowledged win (with how many so far): the test's moment to break things.
   * A promise it returns holds every worker until it settles, so what it breaks is broken before
   * the next request (a quiet machine would otherwise finish the load first).
   */
  readonly onAcknowledged?: (count: number) => void | Promise<void>;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const token = await mintToken({ secret: options.secret, sub: 'load', scopes: ['scores:write'] });
  const expected = new Map<string, number>();
  const failures: FailedAnswer[] = [];
  let next = 0;
  let acknowledged = 0;
  let attempts = 0;
  let held: Promise<void> | undefined;
  const worker = async () => {
    for (let n = next++; n < options.wins; n = next++) {
      await held;
      const userId = `user-${n % options.users}`;
      const points = 1 + (n % 3);
      const body = JSON.stringify({ user_id: userId, points, match_id: `${options.prefix}-${n}` });
      const deadline = Date.now() + options.winDeadlineMs;
      for (;;) {
        const url = options.urls[attempts++ % options.urls.length]!;
        const status = await fetch(`${url}/v1/scores`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(10_000),
        })
          .then(async (response) => {
            const text = await response.text();
            if (response.status !== 200) {
              const problem = (text ? JSON.parse(text) : {}) as { code?: string };
              failures.push({
                status: response.status,
                code: problem.code,
                retryAfter: response.headers.get('retry-after'),
              });
            }
            return response.status;
          })
          .catch(() => {
            failures.push({ status: 0, code: undefined, retryAfter: null });
            return 0;
          });
        if (status === 200) break;
        if (Date.now() > deadline)
          throw new Error(`win ${n} not acknowledged within ${options.winDeadlineMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expected.set(userId, (expected.get(userId) ?? 0) + points);
      const breaking = options.onAcknowledged?.(++acknowledged);
      if (breaking !== undefined) {
        held = breaking;
        await breaking;
        held = undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  return { expected, acknowledged, failures };
}
