import t from 'tap';
import { decode, encode, type Field } from '../../src/fix/codec.ts';
import { answerResendRequest, keepSent, type SentMessage } from '../../src/fix/resend.ts';

function request(begin: string, end: string) {
  const m = decode(
    encode([
      [35, '2'],
      [7, begin],
      [16, end],
    ] as Field[]),
  );
  if ('garbled' in m) throw new Error(m.garbled);
  return m;
}

/** Frames as `seq type original body`, SOH shown as '|'. */
const frame = (seq: number, msgType: string, body: string, original: string) =>
  `${seq} ${msgType} ${original} ${body.replaceAll('\x01', '|')}`;

const sentAt = (...seqs: number[]) =>
  new Map<number, SentMessage>(
    seqs.map((s) => [s, { msgType: '8', body: `37=${s}\x01`, sendingTime: `t${s}` }]),
  );

t.test('kept messages go again at their numbers, each run of others as one gap fill', async (t) => {
  const answer = answerResendRequest(request('2', '0'), 7, sentAt(3, 4, 6), 'now', frame);
  t.same(answer, {
    frames: [
      '2 4 now 123=Y|36=3|',
      '3 8 t3 37=3|',
      '4 8 t4 37=4|',
      '5 4 now 123=Y|36=6|',
      '6 8 t6 37=6|',
      '7 4 now 123=Y|36=8|',
    ],
  });
  t.same(answerResendRequest(request('3', '4'), 7, sentAt(3, 4, 6), 'now', frame), {
    frames: ['3 8 t3 37=3|', '4 8 t4 37=4|'],
  });
  t.same(
    answerResendRequest(request('1', '99'), 2, sentAt(), 'now', frame),
    { frames: ['1 4 now 123=Y|36=3|'] },
    'EndSeqNo past the last means up to the last',
  );
});

t.test('a bad BeginSeqNo or EndSeqNo is a problem, not a guess', async (t) => {
  for (const [begin, end] of [
    ['0', '0'],
    ['x', '0'],
    ['1', '-1'],
  ] as const) {
    t.same(answerResendRequest(request(begin, end), 5, sentAt(), 'now', frame), {
      problem: 'bad BeginSeqNo or EndSeqNo',
    });
  }
});

t.test('keepSent holds the last `window` messages', async (t) => {
  const sent = new Map<number, SentMessage>();
  for (let seq = 1; seq <= 5; seq++) keepSent(sent, seq, { msgType: '8', body: '', sendingTime: '' }, 3);
  t.same([...sent.keys()], [3, 4, 5]);
});
