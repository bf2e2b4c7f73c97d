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

t.test('a timeout names what it awaited, the last error and the state', async (t) => {
  await t.rejects(
    pollUntil('a ready pod', () => Promise.reject(new Error('connection refused')), {
      ms: 0,
      describe: () => Promise.resolve('pod/x Pending'),
    }),
    { message: 'timed out after 0 s waiting for a ready pod\nlast error: connection refused\npod/x Pending' },
  );
});
