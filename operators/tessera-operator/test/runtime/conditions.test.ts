import t from 'tap';
import { setCondition } from '../../src/runtime/conditions.ts';

t.test('lastTransitionTime moves only when the status changes', async (t) => {
  const first = setCondition(
    undefined,
    { type: 'Ready', status: 'False', reason: 'A', message: 'a' },
    new Date('2026-01-01T00:00:00.123Z'),
    1,
  );
  t.same(first, [
    {
      type: 'Ready',
      status: 'False',
      reason: 'A',
      message: 'a',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      observedGeneration: 1,
    },
  ]);
  const same = setCondition(
    first,
    { type: 'Ready', status: 'False', reason: 'B', message: 'b' },
    new Date('2026-01-02T00:00:00Z'),
    2,
  );
  t.equal(same[0]?.lastTransitionTime, '2026-01-01T00:00:00Z', 'same status: the transition time stays');
  t.equal(same[0]?.reason, 'B');
  const flipped = setCondition(
    same,
    { type: 'Ready', status: 'True', reason: 'C', message: 'c' },
    new Date('2026-01-03T00:00:00Z'),
    2,
  );
  t.equal(flipped[0]?.lastTransitionTime, '2026-01-03T00:00:00Z');
  const other = setCondition(
    flipped,
    { type: 'Archived', status: 'True', reason: 'D', message: 'd' },
    new Date(),
    undefined,
  );
  t.same(
    other.map((c) => c.type),
    ['Ready', 'Archived'],
    'one entry per type',
  );
  t.equal(first.length, 1, 'the input list is not changed');
});
