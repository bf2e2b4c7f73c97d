/**
 * The WebSocket in the platform as it runs (`tessera serve`, every service mounted): a browser's
 * way in (token as a subprotocol), a mail from another user arrives as an event.
 */
import { once } from 'node:events';
import { mintToken } from '@tessera/kit';
import { launchTessera, tempDir } from '@tessera/testkit';
import t from 'tap';
import { WebSocket } from 'ws';

const SECRET = 'websocket-test-secret-that-is-long-enough-0123456789';

t.test('tessera serve pushes new mail over GET /v1/events', async (t) => {
  const platform = await launchTessera(['serve'], {
    env: { DATA_DIR: tempDir(t, 'tessera-ws-'), AUTH_JWT_SECRET: SECRET },
  });
  t.teardown(() => platform.stop('SIGKILL'));
  const alice = await mintToken({ secret: SECRET, sub: 'alice', scopes: ['mail'] });
  const bob = await mintToken({ secret: SECRET, sub: 'bob', scopes: ['mail'] });
  const socket = new WebSocket(`${platform.url.replace(/^http/, 'ws')}/v1/events`, [
    'tessera.events.v1',
    `bearer.${alice}`,
  ]);
  t.teardown(() => socket.terminate());
  await once(socket, 'open');
  t.equal(socket.protocol, 'tessera.events.v1');
  const message = once(socket, 'message');
  const sent = await fetch(`${platform.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bob}`, 'content-type': 'application/json' },
    body: JSON.stringify({ to: [{ name: '', email: 'alice@tessera.local' }], subject: 'hi', body: 'x' }),
  });
  t.equal(sent.status, 201);
  const [data] = (await message) as [Buffer];
  const event = JSON.parse(data.toString('utf8')) as { type: string; email_id: string; folder_id: string };
  t.match(event, { type: 'message.new', folder_id: 'inbox' });
  const detail = await fetch(`${platform.url}/v1/messages/${event.email_id}`, {
    headers: { authorization: `Bearer ${alice}` },
  });
  t.match(await detail.json(), { subject: 'hi', from: { email: 'bob@tessera.local' } });
});
