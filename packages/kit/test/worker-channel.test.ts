import { Worker } from 'node:worker_threads';
import t from 'tap';
import { WorkerChannel } from '../src/worker-channel.ts';
import type { FixtureCommand } from './fixtures/channel-commands.ts';

/** The fixture's commands, and one that cannot be cloned (it never reaches the thread). */
type Command = FixtureCommand | { readonly kind: 'echo'; readonly value: () => void };

const FIXTURE = new URL('./fixtures/channel-worker.ts', import.meta.url);

function open(): WorkerChannel<Command, string | Float64Array> {
  return new WorkerChannel(new Worker(FIXTURE), 'fixture');
}

t.test('each request gets its own reply, in any number at once', async (t) => {
  const channel = open();
  t.teardown(() => channel.close());
  const replies = await Promise.all(
    Array.from({ length: 50 }, (_, i) => channel.request({ kind: 'echo', value: `v${i}` })),
  );
  t.same(
    replies,
    Array.from({ length: 50 }, (_, i) => `v${i}`),
  );
});

t.test('what the handler throws rejects that request only, with its message and code', async (t) => {
  const channel = open();
  t.teardown(() => channel.close());
  const failed = channel.request({ kind: 'throw', message: 'no room' });
  const fine = channel.request({ kind: 'echo', value: 'still here' });
  await t.rejects(failed, { message: 'no room', code: 'FIXTURE_FAILED' });
  t.equal(await fine, 'still here');
  t.equal(channel.failed, undefined, 'a failed request is not a failed thread');
});

t.test('a result can come back as a transferred buffer', async (t) => {
  const channel = open();
  t.teardown(() => channel.close());
  const numbers = await channel.request({ kind: 'numbers', count: 4 });
  t.ok(numbers instanceof Float64Array);
  t.same([...(numbers as Float64Array)], [0, 1.5, 3, 4.5]);
});

t.test('a thread that exits fails what waits on it and every later request', async (t) => {
  const channel = open();
  t.teardown(() => channel.close());
  const dying = channel.request({ kind: 'die' });
  await t.rejects(dying, /fixture thread stopped \(exit code 3\)/);
  t.match(channel.failed?.message, /fixture thread stopped/);
  await t.rejects(channel.request({ kind: 'echo', value: 'late' }), /fixture thread stopped/);
});

t.test('close sends the last command first, then ends the thread', async (t) => {
  const channel = open();
  await channel.close({ kind: 'echo', value: 'bye' });
  await t.rejects(channel.request({ kind: 'echo', value: 'after' }), /fixture thread stopped/);
});

t.test('a last command that fails still ends the thread, and close says so', async (t) => {
  const channel = open();
  await t.rejects(channel.close({ kind: 'throw', message: 'cannot close' }), /cannot close/);
  await t.rejects(channel.request({ kind: 'echo', value: 'after' }), /fixture thread stopped/);
});

t.test('what cannot be cloned fails its own request only; the thread lives on', async (t) => {
  const channel = open();
  t.teardown(() => channel.close());
  await t.rejects(channel.request({ kind: 'throw-uncloneable' }), {
    message: 'not an Error',
    code: 'FIXTURE_ODD',
  });
  await t.rejects(channel.request({ kind: 'answer-uncloneable' }), /answer could not be sent/);
  await t.rejects(channel.request({ kind: 'echo', value: () => undefined }), /could not be cloned/);
  t.equal(await channel.request({ kind: 'echo', value: 'alive' }), 'alive');
  t.equal(channel.failed, undefined);
});
