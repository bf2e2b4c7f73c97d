// The end-to-end suites of the scores and the top list, against `tessera run leaderboard api` as
// its own process over real HTTP: the role answers exactly as the in-process service does.
import t from 'tap';

// A process per test: on a busy 2-core machine that is minutes, not tap's default 30 s.
t.setTimeout(900_000);
process.env.LEADERBOARD_TEST_TARGET = 'api';
await import('../http/scores.test.ts');
await import('../http/top.test.ts');
