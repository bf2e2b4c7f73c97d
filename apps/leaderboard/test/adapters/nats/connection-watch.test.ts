import type { Status } from '@nats-io/transport-node';
import t from 'tap';
import { NatsConnectionWatch } from '../../../src/adapters/nats/connection-watch.ts';

/** Status events the test pushes one by one, as the client's `status()` iterator yields them. */
function statusFeed() {
  const queue: Status[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const iterable: AsyncIterable<Status> = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    iterable,
    async push(status: Status) {
      queue.push(status);
      wake?.();
      await settle();
    },
    async end() {
      ended = true;
      wake?.();
      await settle();
    },
  };
}

t.test('down from a disconnect until the reconnect, each change reported once', async (t) => {
  const feed = statusFeed();
  const changes: Array<string | undefined> = [];
  const watch = new NatsConnectionWatch(feed.iterable, { onChange: (down) => changes.push(down) });
  t.equal(watch.down(), undefined, 'up at the start');

  await feed.push({ type: 'ping', pendingPings: 1 });
  t.equal(watch.down(), undefined, 'a ping changes nothing');

  await feed.push({ type: 'disconnect', server: '127.0.0.1:4222' });
  t.match(watch.down(), /disconnected from 127\.0\.0\.1:4222/);
  await feed.push({ type: 'reconnecting' });
  await feed.push({ type: 'staleConnection' });
  t.match(watch.down(), /stopped answering pings/, 'the newest reason');

  await feed.push({ type: 'reconnect', server: '127.0.0.1:4222' });
  t.equal(watch.down(), undefined, 'up again');
  await feed.push({ type: 'reconnect', server: '127.0.0.1:4222' });
  t.equal(changes.length, 3, 'a repeated state is not reported again');
  t.equal(changes.at(-1), undefined);
});

t.test('a closed connection stays down', async (t) => {
  const feed = statusFeed();
  const watch = new NatsConnectionWatch(feed.iterable);
  await feed.push({ type: 'close' });
  await feed.end();
  t.match(watch.down(), /closed/);
});

t.test('a status stream that fails leaves the last state and no unhandled rejection', async (t) => {
  const failing: AsyncIterable<Status> = {
    async *[Symbol.asyncIterator]() {
      yield { type: 'disconnect', server: '127.0.0.1:4222' };
      throw new Error('the status stream broke');
    },
  };
  const watch = new NatsConnectionWatch(failing);
  await new Promise((resolve) => setImmediate(resolve));
  t.match(watch.down(), /disconnected/);
});
