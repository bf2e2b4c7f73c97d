/**
 * A hook at a port between a client and a Redis of a test's own: it forwards both ways until the
 * test holds it, then keeps what the client sends (the server's answers to earlier commands still
 * come back). So a test stops a process right before a chosen step — the first command it sends
 * to that instance — without a flag in the code under test; `release` lets the step through late
 * (a stalled process waking up), `cut` drops it and the connections (a process that died).
 */
import { createServer, connect, type Socket } from 'node:net';
import type { Teardown } from '@tessera/testkit';

export interface TcpHook {
  readonly port: number;
  hold(): void;
  release(): void;
  cut(): void;
}

export async function startTcpHook(t: Teardown, target: number): Promise<TcpHook> {
  let held = false;
  const pairs: { client: Socket; upstream: Socket; queue: Buffer[] }[] = [];
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    const pair = { client, upstream, queue: [] as Buffer[] };
    pairs.push(pair);
    client.on('data', (chunk: Buffer) => (held ? pair.queue.push(chunk) : upstream.write(chunk)));
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the hook has no port');
  const cut = () => {
    for (const pair of pairs.splice(0)) {
      pair.queue.length = 0;
      pair.client.destroy();
      pair.upstream.destroy();
    }
  };
  t.teardown(() => {
    cut();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    port: address.port,
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      for (const pair of pairs) for (const chunk of pair.queue.splice(0)) pair.upstream.write(chunk);
    },
    cut,
  };
}
