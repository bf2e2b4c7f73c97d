import t from 'tap';
import { parsePlayers } from '../../src/leaderboard/api.ts';

t.test("players from the api's /metrics", async (t) => {
  t.equal(
    parsePlayers(
      '# HELP leaderboard_players x\n# TYPE leaderboard_players gauge\nleaderboard_players 1234\n',
    ),
    1234,
  );
  t.equal(parsePlayers('leaderboard_players{pod="a"} 5\n'), 5);
  t.equal(parsePlayers('leaderboard_players_total 3\n'), undefined, 'another series is not it');
  t.equal(parsePlayers(''), undefined);
});
