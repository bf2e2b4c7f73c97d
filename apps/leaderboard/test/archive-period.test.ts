import t from 'tap';
import { beyondRetention } from '../src/archive-period.ts';

t.test('beyondRetention: the archives past the newest N, oldest first', async (t) => {
  t.same(beyondRetention(['2026-03', '2026-01', '2026-02'], 2), ['2026-01']);
  t.same(beyondRetention(['2026-01', '2026-02'], 2), [], 'exactly N: none');
  t.same(beyondRetention([], 3), []);
  t.same(beyondRetention(['2025-12', '2026-02', '2026-01', '2025-11'], 1), ['2025-11', '2025-12', '2026-01']);
  t.same(beyondRetention(['2026-W02', '2025-W52', '2026-W01'], 2), ['2025-W52'], 'weeks across a year');
});
