// The end-to-end suites of the scores and the top list, against `tessera run leaderboard api` as
// its own process over real HTTP: the role answers exactly as the in-process service does.
process.env.LEADERBOARD_TEST_TARGET = 'api';
await import('../http/scores.test.ts');
await import('../http/top.test.ts');
