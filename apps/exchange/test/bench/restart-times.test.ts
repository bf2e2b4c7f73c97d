// The restart benchmark at a tiny size, so that it cannot rot: every opening rebuilds the writer's
// state (the digest check inside throws otherwise), from a snapshot and from the whole journal.
import t from 'tap';
import { orderFlow, type FlowOptions } from '../../bench/order-flow.ts';
import { restartTimes } from '../../bench/restart-times.ts';
import { exchangeRules, readExchangeConfig } from '../../src/config.ts';

t.test('restart times: from the latest snapshot and from the whole journal, same state', async (t) => {
  const flow: FlowOptions = { seed: 7, accounts: 20, symbols: ['AAPL', 'MSFT'], mid: 10_000 };
  const progress: number[] = [];
  const result = await restartTimes({
    rules: exchangeRules(readExchangeConfig({ EXCHANGE_HOURS: 'always' })),
    flow,
    requests: 3_000,
    next: orderFlow(flow),
    batch: 500,
    snapshotEvery: 1_000,
    runs: 1,
    fullReplayRuns: 1,
    progress: (written) => progress.push(written),
  });
  t.same(progress, [500, 1_000, 1_500, 2_000, 2_500, 3_000], 'a progress call per batch');
  // Deposits and accepted requests are journaled (a cancel with nothing to cancel is refused).
  t.ok(result.commands > 2_000 && result.commands <= 3_020, `${result.commands} commands journaled`);
  t.ok(result.lastSnapshot > 0 && result.lastSnapshot <= result.commands, 'a snapshot was taken');
  t.ok(result.snapshotBytes > 0);
  t.same(result.failedSnapshots, [], 'every snapshot was taken');
  t.ok(result.withSnapshot.wall > 0 && result.fullReplay !== undefined && result.fullReplay.wall > 0);
});
