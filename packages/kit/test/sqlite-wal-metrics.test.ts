import { Registry } from 'prom-client';
import t from 'tap';
import type { WalCheckpoints } from '../src/sqlite-wal-checkpointer.ts';
import { registerWalMetrics } from '../src/sqlite-wal-metrics.ts';

const stats = (figures: Partial<WalCheckpoints>): WalCheckpoints => ({
  rounds: 0,
  frames: 0,
  copied: 0,
  busy: 0,
  pinnedRounds: 0,
  largestFrames: 0,
  failures: 0,
  copyBackFailures: 0,
  ...figures,
});

t.test('each database’s checkpoints are series with its label, read at each scrape', async (t) => {
  const registry = new Registry();
  let wins = stats({ rounds: 3, frames: 120, copied: 100, pinnedRounds: 1 });
  registerWalMetrics(registry, 'leaderboard/wins.db', () => wins);
  registerWalMetrics(registry, 'exchange/journal.db', () => stats({ failures: 2, copyBackFailures: 1 }));
  const text = await registry.metrics();
  t.match(text, /sqlite_wal_checkpoint_rounds\{database="leaderboard\/wins.db"\} 3/);
  t.match(text, /sqlite_wal_frames\{database="leaderboard\/wins.db"\} 120/);
  t.match(text, /sqlite_wal_frames_copied\{database="leaderboard\/wins.db"\} 100/);
  t.match(text, /sqlite_wal_pinned_rounds\{database="leaderboard\/wins.db"\} 1/);
  t.match(text, /sqlite_wal_checkpoint_failures\{database="exchange\/journal.db"\} 2/);
  t.match(text, /sqlite_wal_copy_back_failures\{database="exchange\/journal.db"\} 1/);
  wins = stats({ rounds: 4 });
  t.match(
    await registry.metrics(),
    /sqlite_wal_checkpoint_rounds\{database="leaderboard\/wins.db"\} 4/,
    'read again',
  );
});

t.test('two registries (two apps in one process) keep their own databases', async (t) => {
  const [a, b] = [new Registry(), new Registry()];
  registerWalMetrics(a, 'a.db', () => stats({ rounds: 1 }));
  registerWalMetrics(b, 'b.db', () => stats({ rounds: 2 }));
  const [textA, textB] = [await a.metrics(), await b.metrics()];
  t.match(textA, /database="a.db"/);
  t.notMatch(textA, /database="b.db"/);
  t.match(textB, /sqlite_wal_checkpoint_rounds\{database="b.db"\} 2/);
});
