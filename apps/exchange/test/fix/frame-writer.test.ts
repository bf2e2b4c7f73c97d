import t from 'tap';
import { BodyBytes } from '../../src/fix/body-bytes.ts';
import { decode, frame } from '../../src/fix/codec.ts';
import { FrameWriter } from '../../src/fix/frame-writer.ts';

const TIME = '20261128-23:30:00.123';
const body = (n: number) => `37=${n}\x0111=c-${n}\x01150=0\x0139=0\x0155=AAPL\x01`;
/** The frame as the string path builds it (session.ts before the writer). */
const expected = (seq: number, msgType = '8', target = 'BUYER') =>
  frame(`35=${msgType}\x0149=TESSERA\x0156=${target}\x0134=${seq}\x0152=${TIME}\x01${body(seq)}`);
const text = (parts: readonly Buffer[]) => parts.map((p) => p.toString('latin1')).join('');

t.test('an application frame is byte for byte the string path’s, checksum and length included', async (t) => {
  const out = new FrameWriter();
  for (const seq of [1, 9, 10, 99, 100, 123_456_789]) {
    out.frame('8', 'TESSERA', 'BUYER', seq, TIME, body(seq));
    const written = text(out.take());
    t.equal(written, expected(seq), `seq ${seq}`);
    t.notOk('garbled' in decode(written), 'decodes');
  }
  out.frame('j', 'TESSERA', 'S', 7, TIME, body(7));
  t.equal(text(out.take()), expected(7, 'j', 'S'));
  const bytes = new BodyBytes().reset(0).text(body(8));
  out.frame('8', 'TESSERA', 'BUYER', 8, TIME, bytes);
  t.equal(text(out.take()), expected(8), 'a body given as bytes: the same frame');
  t.ok(out.empty, 'nothing left once taken');
});

t.test('frames and raw frames come out in the order written, across chunks', async (t) => {
  // Chunks of 300 bytes: about one frame each, so most frames start a new chunk.
  const out = new FrameWriter(300);
  let all = '';
  for (let seq = 1; seq <= 20; seq++) {
    out.frame('8', 'TESSERA', 'BUYER', seq, TIME, body(seq));
    all += expected(seq);
    if (seq % 3 === 0) {
      const raw = frame(`35=0\x0149=TESSERA\x0156=BUYER\x0134=${seq}\x0152=${TIME}\x01`);
      out.raw(raw);
      all += raw;
    }
  }
  const long = frame(`35=3\x01${'58='.padEnd(900, 'x')}\x01`);
  out.raw(long);
  all += long;
  t.notOk(out.empty);
  t.equal(text(out.take()), all);
  t.ok(out.empty);
});

t.test('a slice taken is never written again (the socket may still hold it)', async (t) => {
  const out = new FrameWriter(1024);
  out.frame('8', 'TESSERA', 'BUYER', 1, TIME, body(1));
  const first = out.take();
  const before = text(first);
  for (let seq = 2; seq <= 50; seq++) out.frame('8', 'TESSERA', 'BUYER', seq, TIME, body(seq));
  out.take();
  t.equal(text(first), before);
  t.equal(before, expected(1));
});

t.test(
  'a body of bytes with numbers: its kept byte sum gives the checksum the string path computes',
  async (t) => {
    const out = new FrameWriter();
    const numbers = [0, 7, 10, 12_345, 2 ** 53 - 1, 2 ** 53, -5, 9_999.666666666666, Number.NaN];
    const bytes = new BodyBytes().reset(0);
    let text = '';
    for (const [i, n] of numbers.entries()) {
      bytes
        .text(`${100 + i}=`)
        .number(n)
        .soh();
      text += `${100 + i}=${String(n)}\x01`;
    }
    t.equal(
      bytes.sum,
      [...Buffer.from(text, 'latin1')].reduce((a, b) => a + b, 0),
      'the sum of the bytes written',
    );
    out.frame('8', 'TESSERA', 'BUYER', 42, TIME, bytes);
    const written = out.take();
    t.equal(
      written.map((p) => p.toString('latin1')).join(''),
      frame(`35=8\x0149=TESSERA\x0156=BUYER\x0134=42\x0152=${TIME}\x01${text}`),
    );
  },
);

t.test('a body that outgrew its buffer is refused, not framed with a wrong BodyLength', async (t) => {
  const body = new BodyBytes().reset(10).text('x'.repeat(2_000));
  t.ok(body.length > body.bytes.length, 'the body wrote past its buffer (its bytes are lost)');
  const out = new FrameWriter();
  t.throws(() => out.frame('8', 'EX', 'C1', 1, '20261129-03:00:00.000', body), RangeError);
  t.same(out.take(), [], 'nothing written');
});
