// The same end-to-end suites against the embedded platform, `tessera serve`, as its own process.
process.env.LEADERBOARD_TEST_TARGET = 'serve';
await import('../http/scores.test.ts');
await import('../http/top.test.ts');
