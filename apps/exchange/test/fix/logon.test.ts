import t from 'tap';
import { decode, encode, type Field } from '../../src/fix/codec.ts';
import { readLogon } from '../../src/fix/logon.ts';

function message(fields: Field[]) {
  const m = decode(encode(fields));
  if ('garbled' in m) throw new Error(m.garbled);
  return m;
}

const authenticate = (sender: string, password: string | undefined) =>
  sender === 'C1' && password === 'pw' ? 'alice' : undefined;

const logon = (...extra: Field[]): Field[] => [
  [35, 'A'],
  [49, 'C1'],
  [56, 'TESSERA'],
  [34, '3'],
  [98, '0'],
  [108, '30'],
  [554, 'pw'],
  ...extra,
];

t.test('a good Logon is read; ResetSeqNumFlag too', async (t) => {
  t.same(readLogon(message(logon()), 'TESSERA', authenticate), {
    senderCompId: 'C1',
    account: 'alice',
    seq: 3,
    heartBtInt: 30,
    reset: false,
  });
  t.match(readLogon(message(logon([141, 'Y'])), 'TESSERA', authenticate), { reset: true });
});

t.test('everything else is refused with the reason', async (t) => {
  const refused = (fields: Field[]) => readLogon(message(fields), 'TESSERA', authenticate);
  t.same(refused([[35, '0'], ...logon().slice(1)]), { refused: 'the first message was not a Logon' });
  t.same(refused(logon().map(([k, v]) => (k === 56 ? [k, 'OTHER'] : [k, v]))), {
    refused: 'Logon to OTHER, not TESSERA',
  });
  t.same(refused(logon().map(([k, v]) => (k === 554 ? [k, 'bad'] : [k, v]))), {
    refused: 'Logon refused for SenderCompID C1',
  });
  t.same(refused(logon().map(([k, v]) => (k === 108 ? [k, '-1'] : [k, v]))), {
    refused: 'Logon without a valid MsgSeqNum or HeartBtInt',
  });
});
