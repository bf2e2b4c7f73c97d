import type { TraceScope } from '@tessera/kit';
import t from 'tap';
import { MemoryRankingStore } from '../src/adapters/embedded/memory-ranking-store.ts';
import type { ArchiveStore, ProfileStore, RankingStore, WinLog } from '../src/ports.ts';
import { LeaderboardService, type RecordedWin } from '../src/service.ts';
import { ListWinLog } from './helpers/list-win-log.ts';

const PERIOD = '2026-11';

const noArchive = { isArchived: () => Promise.resolve(false) } as unknown as ArchiveStore;
const noProfiles = {} as ProfileStore;

const INPUTS = [
  { userId: 'ada', points: 3 },
  { userId: 'bob', points: 5, matchId: 'm1' },
  { userId: 'bob', points: 5, matchId: 'm1' },
  { userId: 'ada', points: 5, matchId: 'm1' },
  { userId: 'ada', points: 4 },
];

/** The same updates, a retry and a conflicting match id: the answers, or the failure's code. */
async function updates(rankings: RankingStore, trace?: TraceScope): Promise<Array<RecordedWin | string>> {
  const service = new LeaderboardService({
    ports: { winLog: new ListWinLog(PERIOD), rankings, archive: noArchive, profiles: noProfiles },
    now: () => Date.UTC(2026, 10, 15),
    periodOf: () => PERIOD,
    cacheTopList: true,
  });
  const answers: Array<RecordedWin | string> = [];
  for (const input of INPUTS) {
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

/** recordWinThen's answers (or failures' codes) for the same updates, one after another. */
async function updatesThen(rankings: RankingStore, winLog: WinLog): Promise<Array<RecordedWin | string>> {
  const service = new LeaderboardService({
    ports: { winLog, rankings, archive: noArchive, profiles: noProfiles },
    now: () => Date.UTC(2026, 10, 15),
    periodOf: () => PERIOD,
    cacheTopList: true,
  });
  const answers: Array<RecordedWin | string> = [];
  for (const input of INPUTS) {
    let told = 0;
    const answer = await new Promise<RecordedWin | string>((resolve) => {
      service.recordWinThen(input, (error, recorded) => {
        told++;
        resolve(recorded ?? (error as { code: string }).code);
      });
      t.equal(told, 0, 'never told before recordWinThen returns');
    });
    answers.push(answer);
  }
  return answers;
}

t.test('recordWinThen answers as recordWin, with the log’s callback or without it', async (t) => {
  const expected = await updates(new MemoryRankingStore('shared'));
  t.same(await updatesThen(new MemoryRankingStore('shared'), new ListWinLog(PERIOD)), expected, 'callbacks');
  const promisesOnly = new ListWinLog(PERIOD);
  const log: WinLog = {
    append: (win) => promisesOnly.append(win),
    read: () => promisesOnly.read(),
    periods: () => promisesOnly.periods(),
    lastSeq: () => promisesOnly.lastSeq(),
    close: () => promisesOnly.close(),
  };
  t.same(await updatesThen(new MemoryRankingStore('shared'), log), expected, 'a log without appendThen');
});

t.test('recordWinThen: a refusal and a failed apply are told as failures', async (t) => {
  const store = new MemoryRankingStore('shared');
  const refusing = new Proxy<RankingStore>(store, {
    get: (target, key) => {
      if (key === 'refusal') return () => Object.assign(new Error('rebuilding'), { code: 'LB_REBUILDING' });
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  const log = new ListWinLog(PERIOD);
  t.same(await updatesThen(refusing, log), Array(INPUTS.length).fill('LB_REBUILDING'));
  t.equal(log.wins.length, 0, 'a refused update records nothing');
  const failing = new Proxy<RankingStore>(store, {
    get: (target, key) => {
      if (key === 'applyWinNow')
        return () => {
          throw Object.assign(new Error('closed'), { code: 'LB_CLOSED' });
        };
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  const [fresh] = await updatesThen(failing, new ListWinLog(PERIOD));
  t.equal(fresh, 'LB_CLOSED', 'the apply’s failure, after the append');
});
