/**
 * Exponential back-off for a key whose reconcile keeps failing: base · 2^(failures−1), capped.
 * Pure; the work queue counts the failures.
 */
export interface BackoffPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 300_000 };

export function backoffDelay(failures: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  if (failures <= 0) return 0;
  // 2^30 ms is already far past any sane cap: stop doubling there so the number stays exact.
  const exponent = Math.min(failures - 1, 30);
  return Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
}
