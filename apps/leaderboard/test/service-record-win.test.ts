import type { TraceScope } from '@tessera/kit';
import t from 'tap';
import { MemoryRankingStore } from '../src/adapters/embedded/memory-ranking-store.ts';
import type { ArchiveStore, ProfileStore, RankingStore } from '../src/ports.ts';
import { LeaderboardService, type RecordedWin } from '../src/service.ts';
import { ListWinLog } from './helpers/list-win-log.ts';

const PERIOD = '2026-11';

const noArchive = { isArchived: () => Promise.resolve(false) } as unknown as ArchiveStore;
const noProfiles = {} as ProfileStore;

/** The same updates, a retry and a conflicting match id: the answers, or the failure's code. */
async function updates(rankings: RankingStore, trace?: TraceScope): Promise<Array<RecordedWin | string>> {
  const service = new LeaderboardService({
    ports: { winLog: new ListWinLog(PERIOD), rankings, archive: noArchive, profiles: noProfiles },
    now: () => Date.UTC(2026, 10, 15),
    periodOf: () => PERIOD,
    cacheTopList: true,
  });
  const inputs = [
    { userId: 'ada', points: 3 },
    { userId: 'bob', points: 5, matchId: 'm1' },
    { userId: 'bob', points: 5, matchId: 'm1' },
    { userId: 'ada', points: 5, matchId: 'm1' },
    { userId: 'ada', points: 4 },
  ];
  const answers: Array<RecordedWin | string> = [];
  for (const input of inputs) {
    answers.push(
      await service.recordWin(input, trace).catch((error: unknown) => (error as { code: string }).code),
    );
  }
  return answers;
}

t.test('an update answers the same with the synchronous apply, without it, and traced', async (t) => {
  const expected = await updates(new MemoryRankingStore('shared'));
  t.same(
    expected.map((answer) => (typeof answer === 'string' ? answer : [answer.standing, answer.replayed])),
    [
      [{ userId: 'ada', score: 3, rank: 1 }, false],
      [{ userId: 'bob', score: 5, rank: 1 }, false],
      [{ userId: 'bob', score: 5, rank: 1 }, true],
      'LB_MATCH_ID_CONFLICT',
      [{ userId: 'ada', score: 7, rank: 1 }, false],
    ],
  );
  const store = new MemoryRankingStore('shared');
  // A store with a round trip (Redis) has no synchronous apply.
  const remote = new Proxy<RankingStore>(store, {
    get: (target, key) => {
      if (key === 'applyWinNow') return undefined;
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  t.same(await updates(remote), expected, 'without the synchronous apply');
  const spans: string[] = [];
  const trace: TraceScope = {
    span: (name, work) => {
      spans.push(name);
      return work(trace);
    },
    headers: () => ({}),
  };
  t.same(await updates(new MemoryRankingStore('shared'), trace), expected, 'traced');
  t.same(spans.slice(0, 2), ['leaderboard.win.append', 'leaderboard.ranking.apply'], 'each step a span');
});
