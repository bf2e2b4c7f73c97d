import t from 'tap';
import { MemoryRankingStore } from '../src/adapters/embedded/memory-ranking-store.ts';
import type { RankingStore } from '../src/ports.ts';
import { RankingGate } from '../src/ranking-gate.ts';

const win = (seq: number, period = '2026-11') => ({ seq, period, userId: 'ada', points: 2, at: 0 });

t.test(
  'a closed period refuses reads and applies with a coded 503; others and the rebuild go on',
  async (t) => {
    const store = new MemoryRankingStore('shared');
    const gate = new RankingGate();
    const guarded = gate.guard(store);
    await guarded.applyWin(win(1));
    gate.close('2026-11');
    await t.rejects(guarded.top('2026-11', 0, 10), { code: 'LB_STORE_UNAVAILABLE', status: 503 });
    await t.rejects(guarded.standing('2026-11', 'ada'), { code: 'LB_STORE_UNAVAILABLE' });
    t.match(await guarded.applyWin(win(2)).catch((error: unknown) => error), {
      headers: { 'Retry-After': '1' },
    });
    t.same(await guarded.top('2026-10', 0, 10), [], 'another period answers');
    await guarded.applyBatch([win(2)]);
    gate.open('2026-11');
    t.same(await guarded.standing('2026-11', 'ada'), { userId: 'ada', score: 4, rank: 1 }, 'open again');
  },
);

t.test('the answer that must not wait passes through while open, and is none while closed', async (t) => {
  const store = new MemoryRankingStore('shared');
  const gate = new RankingGate();
  const guarded = gate.guard(store);
  await guarded.applyWin(win(1));
  t.same(guarded.standingNow?.('2026-11', 'ada'), { userId: 'ada', score: 2, rank: 1 });
  gate.close('2026-11');
  t.equal(guarded.standingNow?.('2026-11', 'ada'), undefined, 'closed: the full route answers');
  t.ok(guarded.standingNow, 'still offered for other periods');
  gate.open('2026-11');
  t.same(guarded.standingNow?.('2026-11', 'ada'), { userId: 'ada', score: 2, rank: 1 });
});

t.test('the synchronous apply applies while open, and throws the coded 503 while closed', async (t) => {
  const store = new MemoryRankingStore('shared');
  const gate = new RankingGate();
  const guarded = gate.guard(store);
  t.same(guarded.applyWinNow?.(win(1)), { userId: 'ada', score: 2, rank: 1 });
  gate.close('2026-11');
  t.throws(() => guarded.applyWinNow?.(win(2)), {
    code: 'LB_STORE_UNAVAILABLE',
    status: 503,
    headers: { 'Retry-After': '1' },
  });
  t.same(await store.standing('2026-11', 'ada'), { userId: 'ada', score: 2, rank: 1 }, 'nothing applied');
  gate.open('2026-11');
  t.same(guarded.applyWinNow?.(win(2)), { userId: 'ada', score: 4, rank: 1 });
});

t.test('a store without instant answers is guarded without them', async (t) => {
  const slow: RankingStore = Object.assign(Object.create(new MemoryRankingStore('shared')) as RankingStore, {
    standingNow: undefined,
    applyWinNow: undefined,
  });
  const guarded = new RankingGate().guard(slow);
  t.equal(guarded.standingNow, undefined);
  t.equal(guarded.applyWinNow, undefined);
});

t.test("the check of a new player's room passes through the gate", async (t) => {
  const guarded = new RankingGate().guard(new MemoryRankingStore('shared'));
  t.equal(guarded.admits?.('2026-11', 'ada'), 'admitted');
  t.ok(guarded.dropAdmitted, 'and the giving back of its room');
});

t.test('refusal, on the gate and on the store it guards: the coded 503 while a period is closed', (t) => {
  const gate = new RankingGate();
  const guarded = gate.guard(new MemoryRankingStore('shared'));
  t.ok(guarded.refusal, 'the guarded store names its refusal');
  for (const refusal of [gate.refusal.bind(gate), guarded.refusal ?? (() => undefined)]) {
    t.equal(refusal('2026-11'), undefined);
    gate.close('2026-11');
    t.match(refusal('2026-11'), {
      code: 'LB_STORE_UNAVAILABLE',
      status: 503,
      headers: { 'Retry-After': '1' },
    });
    t.equal(refusal('2026-10'), undefined, 'another period takes wins');
    gate.open('2026-11');
    t.equal(refusal('2026-11'), undefined);
  }
  t.end();
});

t.test("a guarded store's own refusal is kept, behind the gate's", (t) => {
  const own = new Error('the store takes no wins');
  const refusing: RankingStore = Object.assign(
    Object.create(new MemoryRankingStore('shared')) as RankingStore,
    {
      refusal: (period: string) => (period === '2026-11' ? own : undefined),
    },
  );
  const gate = new RankingGate();
  const guarded = gate.guard(refusing);
  t.equal(guarded.refusal?.('2026-11'), own, "the store's refusal while the gate is open");
  t.equal(guarded.refusal?.('2026-10'), undefined);
  gate.close('2026-11');
  t.match(guarded.refusal?.('2026-11'), { code: 'LB_STORE_UNAVAILABLE' }, "the gate's 503 while closed");
  t.end();
});
