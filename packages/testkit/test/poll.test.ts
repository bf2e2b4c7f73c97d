import t from 'tap';
import { pollUntil } from '../src/poll.ts';

t.test('returns once the check holds, through a check that threw', async (t) => {
  let calls = 0;
  await pollUntil(
    'the third call',
    async () => {
      calls++;
      if (calls === 1) throw new Error('not yet');
      return calls === 3;
    },
    { ms: 10_000 },
  );
  t.equal(calls, 3);
});

t.test('checks as often as asked', async (t) => {
  let calls = 0;
  // Ten checks 1 ms apart, against a 1 s default that would take 9 s: past the 5 s cap.
  await pollUntil('the tenth call', () => Promise.resolve(++calls === 10), { ms: 5_000, intervalMs: 1 });
  t.equal(calls, 10);
});

t.test('a timeout names what it awaited, the last error and the state', async (t) => {
  await t.rejects(
    pollUntil('a ready pod', () => Promise.reject(new Error('connection refused')), {
      ms: 0,
      describe: () => Promise.resolve('pod/x Pending'),
    }),
    { message: 'timed out after 0 s waiting for a ready pod\nlast error: connection refused\npod/x Pending' },
  );
});
