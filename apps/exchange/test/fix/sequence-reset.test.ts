import t from 'tap';
import { decode, encode, type Field } from '../../src/fix/codec.ts';
import { gapFill, reset } from '../../src/fix/sequence-reset.ts';

function sequenceReset(newSeqNo: string) {
  const m = decode(
    encode([
      [35, '4'],
      [36, newSeqNo],
    ] as Field[]),
  );
  if ('garbled' in m) throw new Error(m.garbled);
  return m;
}

t.test('gap fill: NewSeqNo above its own MsgSeqNum', async (t) => {
  t.same(gapFill(sequenceReset('9'), 5), { nextIn: 9 });
  t.same(gapFill(sequenceReset('5'), 5), { problem: 'NewSeqNo must be above MsgSeqNum' });
  t.same(gapFill(sequenceReset('x'), 5), { problem: 'NewSeqNo must be above MsgSeqNum' });
});

t.test('reset: NewSeqNo not below what is expected, whatever its MsgSeqNum', async (t) => {
  t.same(reset(sequenceReset('7'), 7), { nextIn: 7 });
  t.same(reset(sequenceReset('20'), 7), { nextIn: 20 });
  t.same(reset(sequenceReset('6'), 7), { problem: 'NewSeqNo below 7' });
});
