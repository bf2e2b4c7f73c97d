import { Gauge, type Registry } from 'prom-client';
import { registerWalMetrics } from '@tessera/kit';
import type { LeaderboardInstance } from './instance.ts';

/** The leaderboard's own series on /metrics, read through the ports and the stats port. */
export function registerLeaderboardMetrics(instance: LeaderboardInstance, registry: Registry): void {
  const { rankings, stats } = instance.ports;
  const registers = [registry];
  new Gauge({
    name: 'leaderboard_players',
    help: 'Players with a score in the live rankings',
    registers,
    async collect() {
      let players = 0;
      for (const period of await rankings.periods()) players += await rankings.players(period);
      this.set(players);
    },
  });
  const { rankingBytes, profileCacheHits, winLogWal } = stats;
  if (winLogWal !== undefined) registerWalMetrics(registry, 'leaderboard/wins.db', winLogWal);
  if (rankingBytes !== undefined) {
    new Gauge({
      name: 'leaderboard_ranking_bytes',
      help: 'Bytes held by the live rankings in this process',
      registers,
      collect() {
        this.set(rankingBytes());
      },
    });
  }
  if (profileCacheHits !== undefined) {
    new Gauge({
      name: 'leaderboard_profile_cache_hits',
      help: 'Profile lookups answered by the cache since start',
      registers,
      collect() {
        this.set(profileCacheHits());
      },
    });
  }
}
