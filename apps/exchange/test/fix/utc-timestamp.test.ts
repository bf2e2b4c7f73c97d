import t from 'tap';
import { UtcTimestamps, utcTimestamp } from '../../src/fix/utc-timestamp.ts';

t.test('UTCTimestamp with milliseconds, as FIX 4.4 writes it', async (t) => {
  t.equal(utcTimestamp(Date.UTC(2026, 10, 23, 20, 1, 28, 123)), '20261123-20:01:28.123');
  t.equal(utcTimestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 6)), '20260102-03:04:05.006');
});

t.test('the kept stamps answer as the function does, for repeated and alternating times', async (t) => {
  const stamps = new UtcTimestamps();
  const times = [0, 0, 1, 0, 1, 2, 2, 0, 1_795_468_967_735, 1_795_468_967_735, 3];
  for (const now of times) t.equal(stamps.format(now), utcTimestamp(now), String(now));
});
