import t from 'tap';
import { pollUntil } from '@tessera/testkit';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

t.test('a close slower than the timeout and its grace exits 1', async (t) => {
  const { codes, exited, exit } = exitRecorder();
  let closeEnded: () => void = () => {};
  const lateClose = new Promise<void>((resolve) => (closeEnded = resolve));
  t.teardown(
    installGracefulShutdown({
      logger,
      timeoutMs: 10,
      graceMs: 10,
      exit,
      close: () => new Promise<void>((resolve) => setTimeout(resolve, 500)).then(closeEnded),
    }),
  );
  process.emit('SIGTERM');
  await exited;
  t.same(codes, [1]);
  await lateClose;
  await new Promise((resolve) => setImmediate(resolve));
  t.same(codes, [1], 'the late close does not exit again');
});

t.test('close() removing the handlers does not remove the deadline', async (t) => {
  const { codes, exited, exit } = exitRecorder();
  let uninstall = () => {};
  uninstall = installGracefulShutdown({
    logger,
    timeoutMs: 10,
    graceMs: 10,
    exit,
    // What serve's close does first; then it waits on connections that never finish.
    close: () => {
      uninstall();
      return new Promise(() => {});
    },
  });
  t.teardown(uninstall);
  process.emit('SIGTERM');
  await exited;
  t.same(codes, [1], 'the last-resort exit still came');
});

t.test('a second signal exits 1 at once', async (t) => {
  const { codes, exit } = exitRecorder();
  let closeEnded: () => void = () => {};
  const closed = new Promise<void>((resolve) => (closeEnded = resolve));
  t.teardown(
    installGracefulShutdown({
      logger,
      timeoutMs: 1000,
      exit,
      signals: ['SIGINT'],
      close: () => new Promise<void>((resolve) => setTimeout(resolve, 50)).then(closeEnded),
    }),
  );
  process.emit('SIGINT');
  process.emit('SIGINT');
  t.same(codes, [1]);
  await closed;
  await new Promise((resolve) => setImmediate(resolve));
  t.same(codes, [1], 'the close that ends later does not exit again');
});

t.test('uninstall removes the handlers', async (t) => {
  const before = process.listenerCount('SIGTERM');
  const uninstall = installGracefulShutdown({ logger, timeoutMs: 10, exit: () => {}, close: async () => {} });
  t.equal(process.listenerCount('SIGTERM'), before + 1);
  uninstall();
  t.equal(process.listenerCount('SIGTERM'), before);
});

t.test(
  'a real process exits within the deadline on SIGTERM, with connections that never finish, and flushes',
  async (t) => {
    const dir = t.testdir();
    const marker = join(dir, 'flushed');
    const deadlineMs = 800;
    const child = spawn(
      process.execPath,
      [
        '--conditions=development',
        '--disable-warning=ExperimentalWarning',
        fileURLToPath(new URL('./fixtures/shutdown-child.ts', import.meta.url)),
      ],
      {
        env: {
          ...process.env,
          PORT: '0',
          LOG_LEVEL: 'silent',
          DATA_DIR: dir,
          SHUTDOWN_TIMEOUT_MS: String(deadlineMs),
          // Longer than the test: only the shutdown deadline may end these requests.
          HTTP_REQUEST_TIMEOUT_MS: '60000',
          FLUSH_MARKER: marker,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    t.teardown(() => {
      clearTimeout(killer);
      child.kill('SIGKILL');
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let out = '';
    const url = await new Promise<URL>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /READY (\S+)/.exec(out);
        if (match?.[1] !== undefined) resolve(new URL(match[1]));
      });
      child.once('exit', () => reject(new Error(`the child exited before it was ready: ${out}`)));
    });
    const port = Number(url.port);
    const open = (chunks: string[]) =>
      new Promise<Socket>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          for (const chunk of chunks) socket.write(chunk);
          resolve(socket);
        });
        socket.on('error', () => {});
      });
    const json = 'Content-Type: application/json\r\n';
    const sockets = [
      // In flight, never answered.
      ...(await Promise.all(
        [1, 2, 3].map(() => open([`POST /hang HTTP/1.1\r\nHost: x\r\n${json}Content-Length: 2\r\n\r\n{}`])),
      )),
      // In flight, the body never finishes.
      ...(await Promise.all(
        [1, 2].map(() => open([`POST /echo HTTP/1.1\r\nHost: x\r\n${json}Content-Length: 100\r\n\r\n{"a":`])),
      )),
    ];
    // Idle keep-alive: one answered request, the connection kept.
    const idle = await open(['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n']);
    await new Promise((resolve) => idle.once('data', resolve));
    sockets.push(idle);
    t.teardown(() => sockets.forEach((s) => s.destroy()));
    const count = (line: string) => out.split('\n').filter((l) => l === line).length;
    await pollUntil(
      'the child to hold every connection, the three hanging requests handled',
      async () => count('CONNECTION') === sockets.length && count('HANG') === 3,
      { ms: 10_000, intervalMs: 10 },
    );

    const started = Date.now();
    child.kill('SIGTERM');
    const code = await exited;
    const took = Date.now() - started;
    // Exit 0, not the 20 s SIGKILL guard's null: the deadline ended the hanging requests.
    t.equal(code, 0, `a clean exit, ${took} ms after SIGTERM (deadline ${deadlineMs} ms)`);
    t.ok(took >= deadlineMs - 50, 'in-flight requests had their time');
    t.equal(readFileSync(marker, 'utf8'), 'flushed', 'the onClose hook ran');
  },
);
