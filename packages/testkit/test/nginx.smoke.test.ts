import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { backend } from '../src/backends.ts';

t.setTimeout(300_000);

t.test('nginx (the local stand-in for the ingress) proxies to a local port', async (t) => {
  const upstream = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({ path: request.url, forwardedFor: request.headers['x-forwarded-for'] ?? null }),
    );
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
  const port = (upstream.address() as AddressInfo).port;

  const nginx = await backend('nginx', { NGINX_UPSTREAM: `127.0.0.1:${port}` });
  t.teardown(() => nginx.stop());
  const response = await fetch(`${nginx.url}/v1/scores?limit=3`);
  t.equal(response.status, 200);
  t.same(await response.json(), { path: '/v1/scores?limit=3', forwardedFor: '127.0.0.1' });
});
