import t from 'tap';
import { readExchangeConfig } from '../../src/config.ts';
import { authenticator, parseCredentials } from '../../src/fix/credentials.ts';

t.test('FIX_CREDENTIALS: SenderCompID:password:account, comma-separated', async (t) => {
  t.same(parseCredentials(''), []);
  t.same(parseCredentials(' A1:p:alice , B-2:q:bob '), [
    { senderCompId: 'A1', password: 'p', account: 'alice' },
    { senderCompId: 'B-2', password: 'q', account: 'bob' },
  ]);
  t.throws(() => parseCredentials('A1:p'), /not SenderCompID:password:account/);
  t.throws(() => parseCredentials('A1:p:alice:x'), /not SenderCompID:password:account/);
  t.throws(() => parseCredentials('A 1:p:alice'), /not SenderCompID:password:account/);
  t.throws(() => parseCredentials('A1:p:alice,A1:q:bob'), /listed twice/);
});

t.test('a bad FIX_CREDENTIALS is named without echoing its passwords', async (t) => {
  const error = t.throws(() => readExchangeConfig({ FIX_CREDENTIALS: 'A1:hunter2' })) as Error;
  t.match(error.message, /FIX_CREDENTIALS/);
  t.notMatch(error.message, /hunter2/);
  t.same(readExchangeConfig({ FIX_CREDENTIALS: 'A1:hunter2:alice' }).FIX_CREDENTIALS, [
    { senderCompId: 'A1', password: 'hunter2', account: 'alice' },
  ]);
});

t.test('authenticate: the account for a matching SenderCompID and password, else nothing', async (t) => {
  const auth = authenticator(parseCredentials('A1:secret:alice'));
  t.equal(auth('A1', 'secret'), 'alice');
  t.equal(auth('A1', 'secreT'), undefined);
  t.equal(auth('A1', undefined), undefined);
  t.equal(auth('B2', 'secret'), undefined);
});
