// The same end-to-end suites against the embedded platform, `tessera serve`, as its own process.
import t from 'tap';

// A process per test: on a busy 2-core machine that is minutes, not tap's default 30 s.
t.setTimeout(900_000);
process.env.LEADERBOARD_TEST_TARGET = 'serve';
await import('../http/scores.test.ts');
await import('../http/top.test.ts');
