/**
 * A store behind a dependency that may be down (Cassandra for profiles and archives): every call
 * that returns a promise reports to the DependencyHealth, and an outage reaches the caller as the
 * coded 503 LB_STORE_UNAVAILABLE with Retry-After, never as a driver's error. The service decides
 * what falls back (names to ids) and what waits (archiving); this only names the failure.
 */
import { leaderboardErrors } from '../errors.ts';
import type { DependencyHealth } from '../dependency-health.ts';

export interface OutageGuardOptions {
  readonly dependency: string;
  readonly health: DependencyHealth;
  /** True for an error that means "unreachable now, retry later" (not a bad query). */
  readonly isOutage: (error: unknown) => boolean;
  /** Seconds for Retry-After. */
  readonly retryAfterSeconds: number;
}

export function guardOutages<T extends object>(store: T, options: OutageGuardOptions): T {
  const { dependency, health } = options;
  const fail = (error: unknown): never => {
    if (!options.isOutage(error)) throw error;
    const why = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : String(error);
    health.down(dependency, why);
    throw leaderboardErrors.LB_STORE_UNAVAILABLE(
      `${dependency} is unavailable; retry later`,
      { dependency },
      { 'Retry-After': String(options.retryAfterSeconds) },
    );
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (error) {
          return fail(error);
        }
        // Async iterables (an archive's standings) pass through: their caller sees the store's errors.
        if (!(result instanceof Promise)) return result;
        return result.then((answer: unknown) => {
          health.up(dependency);
          return answer;
        }, fail);
      };
    },
  });
}
