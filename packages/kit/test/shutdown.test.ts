import t from 'tap';
import { createLogger } from '../src/logger.ts';
import { installGracefulShutdown } from '../src/shutdown.ts';

const logger = createLogger({ level: 'silent', name: 'shutdown-test' });

function exitRecorder() {
  const codes: number[] = [];
  let notify: () => void = () => {};
  const exited = new Promise<void>((resolve) => (notify = resolve));
  return {
    codes,
    exited,
    exit: (code: number) => {
      codes.push(code);
      notify();
    },
  };
}

t.test('SIGTERM runs close and exits 0', async (t) => {
  const { codes, exited, exit } = exitRecorder();
  let closed = 0;
  const uninstall = installGracefulShutdown({
    logger,
    timeoutMs: 1000,
    exit,
    close: async () => {
      closed++;
    },
  });
  t.teardown(uninstall);
  process.emit('SIGTERM');
  await exited;
  t.equal(closed, 1);
  t.same(codes, [0]);
});

t.test('a failing close exits 1', async (t) => {
  const { codes, exited, exit } = exitRecorder();
  t.teardown(
    installGracefulShutdown({
      logger,
      timeoutMs: 1000,
      exit,
      close: async () => {
        throw new Error('db would not close');
      },
    }),
  );
  process.emit('SIGTERM');
  await exited;
  t.same(codes, [1]);
});

t.test('a close slower than the timeout exits 1', async (t) => {
  const { codes, exited, exit } = exitRecorder();
  t.teardown(
    installGracefulShutdown({
      logger,
      timeoutMs: 20,
      exit,
      close: () => new Promise((resolve) => setTimeout(resolve, 500)),
    }),
  );
  process.emit('SIGTERM');
  await exited;
  t.same(codes, [1]);
  await new Promise((resolve) => setTimeout(resolve, 550));
  t.same(codes, [1], 'the late close does not exit again');
});

t.test('a second signal exits 1 at once', async (t) => {
  const { codes, exit } = exitRecorder();
  t.teardown(
    installGracefulShutdown({
      logger,
      timeoutMs: 1000,
      exit,
      signals: ['SIGINT'],
      close: () => new Promise((resolve) => setTimeout(resolve, 50)),
    }),
  );
  process.emit('SIGINT');
  process.emit('SIGINT');
  t.same(codes, [1]);
  await new Promise((resolve) => setTimeout(resolve, 80));
  t.same(codes, [1]);
});

t.test('uninstall removes the handlers', async (t) => {
  const before = process.listenerCount('SIGTERM');
  const uninstall = installGracefulShutdown({ logger, timeoutMs: 10, exit: () => {}, close: async () => {} });
  t.equal(process.listenerCount('SIGTERM'), before + 1);
  uninstall();
  t.equal(process.listenerCount('SIGTERM'), before);
});
