/**
 * A port for a server a test stops and starts again: below the kernel's ephemeral range
 * (32768 and up), so that while the server is down no outgoing connection on this busy machine
 * is given it and the restart cannot bind (freePort's ports are in that range).
 */
import { createServer } from 'node:net';

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function restartablePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await bindable(port)) return port;
  }
  throw new Error('no free port between 20000 and 32000');
}
