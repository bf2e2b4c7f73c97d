import t from 'tap';
import { normalizeMessageId, parseMessageIds, resolveThread, threadKeys } from '../../src/core/threading.ts';

t.test('message ids are read from headers without brackets', async (t) => {
  t.equal(normalizeMessageId(' <a@b> '), 'a@b');
  t.same(parseMessageIds('<a@b> <c@d>\r\n <e@f>'), ['a@b', 'c@d', 'e@f']);
  t.same(parseMessageIds('a@b c@d'), ['a@b', 'c@d']);
  t.same(parseMessageIds(undefined), []);
});

t.test('keys: the message, its parent, then older ancestors', async (t) => {
  t.same(threadKeys({ messageId: '<m3@x>', inReplyTo: 'm2@x', references: ['m1@x', 'm2@x'] }), [
    'm3@x',
    'm2@x',
    'm1@x',
  ]);
});

t.test('a reply joins its parent thread whatever its subject (subjects are not even an input)', async (t) => {
  const known = new Map([['m1@x', 'T1']]);
  t.equal(resolveThread({ messageId: 'm2@x', inReplyTo: 'm1@x', references: ['m1@x'] }, known, 'NEW'), 'T1');
});

t.test('only References is enough; the nearest known ancestor wins', async (t) => {
  const known = new Map([
    ['root@x', 'T-root'],
    ['mid@x', 'T-mid'],
  ]);
  t.equal(resolveThread({ messageId: 'leaf@x', references: ['root@x', 'mid@x'] }, known, 'NEW'), 'T-mid');
});

t.test('a message whose own id a child already named joins that thread (out-of-order arrival)', async (t) => {
  const known = new Map([['parent@x', 'T-child']]);
  t.equal(resolveThread({ messageId: 'parent@x', references: [] }, known, 'NEW'), 'T-child');
});

t.test('an unrelated message starts a new thread', async (t) => {
  t.equal(resolveThread({ messageId: 'lone@x', references: [] }, new Map(), 'NEW'), 'NEW');
});
