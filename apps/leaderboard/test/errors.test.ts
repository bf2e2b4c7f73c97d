import { documentedErrors, tableErrors } from '@tessera/testkit';
import t from 'tap';
import { leaderboardErrors } from '../src/errors.ts';

t.test('docs/leaderboard.md documents exactly the leaderboard error table', async (t) => {
  t.same(
    documentedErrors(new URL('../../../docs/leaderboard.md', import.meta.url), 'LB_'),
    tableErrors(leaderboardErrors),
  );
});
