import t from 'tap';
import { apiDeployment, archiveJob } from '../../src/leaderboard/children.ts';
import { withDefaults } from '../../src/leaderboard/defaults.ts';
import { storeNames } from '../../src/leaderboard/store-names.ts';

// The patterns the leaderboard's settings check (apps/leaderboard distributed-settings.ts).
const KEYSPACE = /^[a-z][a-z0-9_]{0,47}$/;
const STREAM = /^[A-Za-z0-9_-]{1,64}$/;
const SUBJECT = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

t.test('a board gets names of its own on the shared servers, valid for the leaderboard', async (t) => {
  const names = storeNames('games', 'scores');
  t.same(names, {
    LEADERBOARD_KEYSPACE: 'lb_games_scores',
    LEADERBOARD_REDIS_PREFIX: 'lb:games/scores:',
    LEADERBOARD_STREAM: 'LB_WINS_games_scores',
    LEADERBOARD_STREAM_SUBJECT: 'lb.games-scores.wins',
    LEADERBOARD_MATCH_BUCKET: 'LB_MATCHES_games_scores',
  });
  t.not(storeNames('games', 'other').LEADERBOARD_KEYSPACE, names.LEADERBOARD_KEYSPACE, 'another board');
  t.not(storeNames('games2', 'scores').LEADERBOARD_STREAM, names.LEADERBOARD_STREAM, 'another namespace');
});

t.test('long names still fit, and stay apart', async (t) => {
  const long = 'a'.repeat(63);
  const a = storeNames(long, `${long.slice(0, 60)}-x1`);
  const b = storeNames(long, `${long.slice(0, 60)}-x2`);
  for (const names of [a, b]) {
    t.match(names.LEADERBOARD_KEYSPACE, KEYSPACE);
    t.match(names.LEADERBOARD_STREAM, STREAM);
    t.match(names.LEADERBOARD_MATCH_BUCKET, STREAM);
    t.match(names.LEADERBOARD_STREAM_SUBJECT, SUBJECT);
  }
  t.not(a.LEADERBOARD_KEYSPACE, b.LEADERBOARD_KEYSPACE);
  t.same(storeNames(long, 'x'), storeNames(long, 'x'), 'stable');
});

t.test('the api and the archive Job of a board use the same names', async (t) => {
  const board = {
    apiVersion: 'tessera.dev/v1alpha1',
    kind: 'Leaderboard',
    metadata: { name: 'scores', namespace: 'games', uid: 'u-1' },
    spec: {},
  } as const;
  const spec = withDefaults({}, 'img');
  const env = (vars: { name: string; value?: string }[] | undefined) =>
    Object.fromEntries(
      (vars ?? []).filter((v) => v.name.startsWith('LEADERBOARD_K')).map((v) => [v.name, v.value]),
    );
  const api = env(apiDeployment(board, spec).spec?.template.spec?.containers[0]?.env);
  t.same(api, { LEADERBOARD_KEYSPACE: 'lb_games_scores' });
  const migrate = (vars: { name: string; value?: string }[] | undefined) =>
    vars?.find((v) => v.name === 'LEADERBOARD_MIGRATE')?.value;
  t.equal(
    migrate(apiDeployment(board, spec).spec?.template.spec?.containers[0]?.env),
    'true',
    'the api makes the keyspace',
  );
  t.equal(
    migrate(archiveJob(board, spec, '2026-11').spec?.template.spec?.containers[0]?.env),
    'true',
    'so does the Job',
  );
  t.same(env(archiveJob(board, spec, '2026-11').spec?.template.spec?.containers[0]?.env), api);
});
