import t from 'tap';
import { READ, startLeaderboard, tempDataDir, WRITE } from '../helpers/app.ts';

const OCT_31_LATE = Date.UTC(2026, 9, 31, 23, 59, 0);
const NOV_1_EARLY = Date.UTC(2026, 10, 1, 0, 0, 5);

t.test('a new month starts an empty board; the finished month is archived and stays readable', async (t) => {
  const dataDir = tempDataDir(t);
  let now = OCT_31_LATE;
  const lb = await startLeaderboard(t, { dataDir, now: () => now });
  await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'oct-champ', points: 9 } });
  await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'oct-second', points: 4 } });

  now = NOV_1_EARLY;
  const empty = (await lb.call('GET', '/v1/scores', { scopes: READ })).json();
  t.same(empty, { data: [], total: 0, period: '2026-11' }, 'the new month starts empty at once');
  const novWin = await lb.call('POST', '/v1/scores', {
    scopes: WRITE,
    body: { user_id: 'oct-second', points: 1 },
  });
  t.same(novWin.json().user_info, { user_id: 'oct-second', score: 1, rank: 1 }, 'scores start over');

  const beforeArchive = (await lb.call('GET', '/v1/scores?period=2026-10', { scopes: READ })).json();
  t.same(
    beforeArchive.data.map((e: { user_id: string }) => e.user_id),
    ['oct-champ', 'oct-second'],
  );
  const archived = await lb.instance.archiveNow();
  t.same(archived, ['2026-10']);
  t.same(await lb.instance.ports.rankings.periods(), ['2026-11'], 'the live ranking of October is gone');

  const fromArchive = (await lb.call('GET', '/v1/scores?period=2026-10', { scopes: READ })).json();
  t.same(fromArchive, beforeArchive, 'October reads the same from historical storage');
  const champ = (
    await lb.call('GET', '/v1/scores/oct-second?period=2026-10&around=1', { scopes: READ })
  ).json();
  t.same(champ.user_info, { user_id: 'oct-second', score: 4, rank: 2 });
  t.same(
    champ.data.map((e: { user_id: string }) => e.user_id),
    ['oct-champ', 'oct-second'],
  );
  t.equal(
    (await lb.call('GET', '/v1/scores/oct-champ', { scopes: READ })).statusCode,
    404,
    'no November score yet',
  );

  await lb.close();
  const again = await startLeaderboard(t, { dataDir, now: () => now });
  const afterRestart = (await again.call('GET', '/v1/scores?period=2026-10', { scopes: READ })).json();
  t.same(afterRestart, beforeArchive, 'the archive survives a restart');
  t.equal((await again.call('GET', '/v1/scores', { scopes: READ })).json().data[0].user_id, 'oct-second');
});

t.test('a month left unarchived (e.g. the process was down at midnight) is archived at start', async (t) => {
  const dataDir = tempDataDir(t);
  let now = OCT_31_LATE;
  const october = await startLeaderboard(t, { dataDir, now: () => now });
  await october.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'a', points: 2 } });
  await october.close();
  now = NOV_1_EARLY;
  const november = await startLeaderboard(t, { dataDir, now: () => now });
  t.same(await november.instance.ports.rankings.periods(), [], 'October went to the archive at start');
  const read = (await november.call('GET', '/v1/scores?period=2026-10', { scopes: READ })).json();
  t.same(read.data, [{ user_id: 'a', user_name: 'a', rank: 1, score: 2 }]);
});

t.test('the month follows LEADERBOARD_TIMEZONE', async (t) => {
  const lb = await startLeaderboard(t, {
    env: { LEADERBOARD_TIMEZONE: 'Asia/Tokyo' },
    now: () => Date.UTC(2026, 9, 31, 16, 0), // 01:00 on 1 November in Tokyo
  });
  await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'a', points: 1 } });
  t.equal((await lb.call('GET', '/v1/scores', { scopes: READ })).json().period, '2026-11');
});

t.test('a future or empty month reads as an empty board', async (t) => {
  const lb = await startLeaderboard(t);
  t.same((await lb.call('GET', '/v1/scores?period=2099-01', { scopes: READ })).json().data, []);
});

t.test(
  'LEADERBOARD_PERIOD=weekly: a board per ISO week, the finished week archived and readable',
  async (t) => {
    let now = Date.UTC(2026, 10, 29, 23, 59); // Sunday of 2026-W48
    const lb = await startLeaderboard(t, { env: { LEADERBOARD_PERIOD: 'weekly' }, now: () => now });
    await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'sunday', points: 3 } });
    t.equal((await lb.call('GET', '/v1/scores', { scopes: READ })).json().period, '2026-W48');
    now = Date.UTC(2026, 10, 30, 0, 1); // Monday: 2026-W49
    t.same((await lb.call('GET', '/v1/scores', { scopes: READ })).json(), {
      data: [],
      total: 0,
      period: '2026-W49',
    });
    t.same(await lb.instance.archiveNow(), ['2026-W48']);
    const week = (await lb.call('GET', '/v1/scores?period=2026-W48', { scopes: READ })).json();
    t.same(week.data, [{ user_id: 'sunday', user_name: 'sunday', rank: 1, score: 3 }]);
    const monthly = await lb.call('GET', '/v1/scores?period=2026-11', { scopes: READ });
    t.equal(monthly.statusCode, 400, 'a month is not a period of a weekly board');
    t.match(monthly.json().detail, /period/);
  },
);

t.test('LEADERBOARD_PERIOD=daily: a board per day in the zone', async (t) => {
  const lb = await startLeaderboard(t, {
    env: { LEADERBOARD_PERIOD: 'daily', LEADERBOARD_TIMEZONE: 'America/New_York' },
    now: () => Date.UTC(2026, 10, 24, 4, 30), // 23:30 on the 23rd in New York
  });
  await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'a', points: 1 } });
  t.equal((await lb.call('GET', '/v1/scores', { scopes: READ })).json().period, '2026-11-23');
});

t.test(
  'a finished month waits out LEADERBOARD_ARCHIVE_GRACE_MS: a win still in flight for it is kept',
  async (t) => {
    let now = OCT_31_LATE;
    const lb = await startLeaderboard(t, { env: { LEADERBOARD_ARCHIVE_GRACE_MS: '60000' }, now: () => now });
    await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'late', points: 2 } });
    now = NOV_1_EARLY;
    t.same(await lb.instance.archiveNow(), [], 'five seconds after midnight October stays live');
    now = NOV_1_EARLY + 60_000;
    t.same(await lb.instance.archiveNow(), ['2026-10'], 'after the grace it is archived');
    const read = (await lb.call('GET', '/v1/scores?period=2026-10', { scopes: READ })).json();
    t.same(read.data, [{ user_id: 'late', user_name: 'late', rank: 1, score: 2 }]);
  },
);
