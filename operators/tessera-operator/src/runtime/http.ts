/**
 * /healthz (the process runs), /readyz (a standby is ready too: it is healthy and waiting for the
 * Lease; the leader is ready once its caches are filled) and /metrics, on a small node:http server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface HealthServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startHealthServer(options: {
  port: number;
  host?: string;
  registry: Registry;
  ready: () => boolean;
}): Promise<HealthServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    } else if (path === '/readyz') {
      const ready = options.ready();
      response
        .writeHead(ready ? 200 : 503, { 'content-type': 'text/plain' })
        .end(ready ? 'ready' : 'not ready');
    } else if (path === '/metrics') {
      options.registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': options.registry.contentType }).end(text),
        () => response.writeHead(500).end(),
      );
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
