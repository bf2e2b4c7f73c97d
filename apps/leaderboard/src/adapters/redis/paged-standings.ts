import type { Standing } from '../../core/standing.ts';

/** Players per page when a whole period is read (for archiving). */
const STANDINGS_BATCH = 10_000;

/**
 * Every player of a period in rank order, a page of `top` at a time: what a Redis-backed store
 * answers `standings` with. A finished period no longer changes, so paging by position is
 * consistent.
 */
export async function* pagedStandings(
  top: (offset: number, limit: number) => Promise<Standing[]>,
): AsyncIterable<readonly Standing[]> {
  for (let offset = 0; ; offset += STANDINGS_BATCH) {
    const page = await top(offset, STANDINGS_BATCH);
    if (page.length > 0) yield page;
    if (page.length < STANDINGS_BATCH) return;
  }
}
