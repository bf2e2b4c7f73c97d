import t from 'tap';
import { kitErrors } from '../../src/errors.ts';
import type { WriteDone } from '../../src/http/fast-route-types.ts';
import { listen, parseResponses, rawExchange, testApp, token } from './helpers.ts';

/**
 * A fast write with a completion callback (`writeBytesThen`), through the front: answered as its
 * promise twin would be, never through `writeBytes`. Bodies name what the write does with them:
 * `later` answers after a turn, `now` calls back before it returns, `problem` and `throw` fail,
 * anything else is declined to `write` (which takes `{"parsed":…}`) or the full route.
 */
async function appWith(t: Parameters<typeof listen>[0]) {
  const app = await testApp({ rateLimitEnabled: false, fastFront: true });
  const seen: string[] = [];
  const reply = (text: string) => ({
    body: JSON.stringify({ from: 'then', text }),
    headers: { 'x-then': 'yes' },
  });
  app.addFastWrite({
    route: '/items',
    scope: 'items:write',
    maxBodyBytes: 64,
    writeBytesThen(body, _principal, done: WriteDone) {
      const text = body.toString('latin1');
      seen.push(`then ${text}`);
      if (text === '"later"') setImmediate(() => done(undefined, reply(text)));
      else if (text === '"now"') done(undefined, { body: '{"now":true}' });
      else if (text === '"problem"') setImmediate(() => done(kitErrors.KIT_RATE_LIMITED('slow down')));
      else if (text === '"throw"') throw new Error('broken');
      else return false;
      return true;
    },
    writeBytes(body) {
      seen.push(`bytes ${body.toString('latin1')}`);
      return undefined;
    },
    write(body) {
      if (typeof body !== 'object' || body === null || !('parsed' in body)) return undefined;
      seen.push('write');
      return Promise.resolve({ body: '{"from":"write"}' });
    },
  });
  app.post('/items', { config: { auth: { scope: 'items:write' } } }, async () => ({ from: 'full' }));
  const port = await listen(t, app);
  const auth = `Bearer ${await token(['items:write'])}`;
  // The first use of a token is the full route's (it verifies it); afterwards it is known.
  await fetch(`http://127.0.0.1:${port}/items`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: '{}',
  });
  seen.length = 0;
  const post = (body: string) =>
    `POST /items HTTP/1.1\r\nHost: h\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const exchange = async (bodies: readonly string[]) =>
    parseResponses((await rawExchange(port, [bodies.map(post).join('')], { answers: bodies.length })).text);
  return { seen, exchange };
}

t.test('answers through the callback, in order on one connection, without writeBytes', async (t) => {
  const { seen, exchange } = await appWith(t);
  const answers = await exchange(['"later"', '"now"', '"later"']);
  t.same(
    answers.map((a) => [a.status, a.body, a.headers['x-then']]),
    [
      [200, '{"from":"then","text":"\\"later\\""}', 'yes'],
      [200, '{"now":true}', undefined],
      [200, '{"from":"then","text":"\\"later\\""}', 'yes'],
    ],
  );
  t.same(seen, ['then "later"', 'then "now"', 'then "later"'], 'writeBytes never asked');
});

t.test('failures are the problems the promise path answers', async (t) => {
  const { exchange } = await appWith(t);
  const [problem, thrown] = await exchange(['"problem"', '"throw"']);
  t.equal(problem!.status, 429);
  t.match(JSON.parse(problem!.body), { code: 'KIT_RATE_LIMITED' });
  t.equal(thrown!.status, 500);
  t.match(JSON.parse(thrown!.body), { code: 'KIT_INTERNAL' });
});

t.test('declined: parsed for write, else the full route; writeBytes is not asked before write', async (t) => {
  const { seen, exchange } = await appWith(t);
  const answers = await exchange(['{"parsed":1}', '{"other":1}']);
  t.same(
    answers.map((a) => a.body),
    ['{"from":"write"}', '{"from":"full"}'],
  );
  // The one declined for good is handed to node:http, whose side looks again (writeBytes).
  t.same(seen, ['then {"parsed":1}', 'write', 'then {"other":1}', 'bytes {"other":1}']);
});
