/**
 * Which of the service's dependencies are down right now, as the stores' own calls find out: a
 * call that fails for an outage marks its dependency down (with why), the next call that works
 * marks it up. Readiness reads it (ready, but degraded), so an operator sees what falls back.
 */
export class DependencyHealth {
  readonly #down = new Map<string, string>();

  down(dependency: string, why: string): void {
    this.#down.set(dependency, why);
  }

  up(dependency: string): void {
    this.#down.delete(dependency);
  }

  isDown(dependency: string): boolean {
    return this.#down.has(dependency);
  }

  /** One line naming every dependency down and why, or undefined when all are up. */
  describe(): string | undefined {
    if (this.#down.size === 0) return undefined;
    return [...this.#down].map(([dependency, why]) => `${dependency} unavailable (${why})`).join('; ');
  }
}
