import t from 'tap';
import type { Principal } from '../../src/auth.ts';
import { tryWrite } from '../../src/http/fast-route-table.ts';
import type { FastReply, FastWrite } from '../../src/http/fast-route-types.ts';

const principal: Principal = { sub: 'alice', scopes: new Set(['items:write']) };
const reply = (body: string): Promise<FastReply> => Promise.resolve({ body });
const none = Promise.resolve<FastReply | undefined>(undefined);

/** A write that reads `{"n":<digit>}` from the bytes and takes any other object through JSON.parse. */
function recording(): { write: FastWrite; seen: string[] } {
  const seen: string[] = [];
  const write: FastWrite = {
    route: '/items',
    scope: 'items:write',
    maxBodyBytes: 64,
    writeBytes(body) {
      const text = body.toString('latin1');
      if (!/^\{"n":\d\}$/.test(text)) return undefined;
      seen.push(`bytes ${text}`);
      return reply('bytes');
    },
    write(body) {
      if (typeof body !== 'object' || body === null) return undefined;
      seen.push(`parsed ${JSON.stringify(body)}`);
      return reply('parsed');
    },
  };
  return { write, seen };
}

t.test('the bytes are offered first; a body they decline is parsed for write', async (t) => {
  const { write, seen } = recording();
  t.same(await tryWrite(write, Buffer.from('{"n":1}'), principal), { body: 'bytes' });
  t.same(await tryWrite(write, Buffer.from('{ "n": 1 }'), principal), { body: 'parsed' });
  t.equal(tryWrite(write, Buffer.from('{"n":'), principal), undefined, 'not JSON: the full route');
  t.equal(tryWrite(write, Buffer.from('7'), principal), undefined, 'both decline: the full route');
  t.same(seen, ['bytes {"n":1}', 'parsed {"n":1}'], 'each body written once');
});

t.test('a write without writeBytes is given the parsed body', async (t) => {
  const { write, seen } = recording();
  const parsedOnly: FastWrite = { ...write, writeBytes: undefined };
  t.same(await tryWrite(parsedOnly, Buffer.from('{"n":2}'), principal), { body: 'parsed' });
  t.same(seen, ['parsed {"n":2}']);
});

t.test('a throw of either is a rejection, answered as the full route would', async (t) => {
  const { write } = recording();
  const failing: FastWrite = {
    ...write,
    writeBytes: () => {
      throw new Error('bytes failed');
    },
  };
  await t.rejects(tryWrite(failing, Buffer.from('{"n":1}'), principal) ?? none, {
    message: 'bytes failed',
  });
  const failingWrite: FastWrite = {
    ...write,
    writeBytes: undefined,
    write: () => {
      throw new Error('write failed');
    },
  };
  await t.rejects(tryWrite(failingWrite, Buffer.from('{"n":1}'), principal) ?? none, {
    message: 'write failed',
  });
});
