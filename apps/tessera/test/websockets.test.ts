/**
 * Every service's WebSocket on one platform: the kit registers @fastify/websocket once per app;
 * a registration per service would dispatch each upgrade twice and break the second service's
 * sockets (it did, when the exchange and mail each registered their own).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateSecret, mintToken } from '@tessera/kit';
import t from 'tap';
import { startPlatform } from '../src/platform.ts';

/** Opens a socket with Node's own WebSocket client; resolves with the answered protocol and the first message. */
function firstMessage(url: string, protocols: string[]): Promise<{ protocol: string; data: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols);
    const timer = setTimeout(() => reject(new Error(`no message on ${url}`)), 10_000);
    socket.addEventListener('message', (event) => {
      clearTimeout(timer);
      resolve({ protocol: socket.protocol, data: String(event.data) });
      socket.close();
    });
    socket.addEventListener('error', () => {
      clearTimeout(timer);
      reject(new Error(`socket error on ${url}`));
    });
  });
}

function opened(url: string, protocols: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols);
    socket.addEventListener('open', () => {
      resolve(socket.protocol);
      socket.close();
    });
    socket.addEventListener('error', () => reject(new Error(`socket error on ${url}`)));
  });
}

t.test('the exchange feed and the mail push both upgrade on one platform', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-websockets-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const platform = await startPlatform({
    env: { PORT: '0', SMTP_PORT: '0', FIX_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'silent' },
    handleSignals: false,
  });
  t.teardown(() => platform.close());
  const base = platform.url.replace(/^http/, 'ws');
  const mailToken = await mintToken({ secret: loadOrCreateSecret(dir), sub: 'alice', scopes: ['mail'] });

  // Twice each, in both orders: every upgrade is dispatched once, whichever service it is for.
  for (let round = 0; round < 2; round++) {
    const feed = await firstMessage(`${base}/v1/exchange/ws`, ['tessera.v1']);
    t.equal(feed.protocol, 'tessera.v1');
    t.match(JSON.parse(feed.data), { type: 'welcome' });
    t.equal(
      await opened(`${base}/v1/events`, ['tessera.events.v1', `bearer.${mailToken}`]),
      'tessera.events.v1',
    );
  }
  // The token offered as a subprotocol is never echoed, and a URL token is refused.
  await t.rejects(opened(`${base}/v1/events?access_token=${mailToken}`, ['tessera.events.v1']));
});
