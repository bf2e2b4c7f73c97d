import t from 'tap';
import { FrameWriter } from '../../src/fix/frame-writer.ts';
import { SentLog } from '../../src/fix/sent-log.ts';

const message = (seq: number, body = `37=${seq}\x01`) => ({
  msgType: '8',
  body,
  sendingTime: `20261123-23:00:00.${String(seq % 1000).padStart(3, '0')}`,
});

t.test('gives back what was kept, as it was, for the last `window` numbers', async (t) => {
  const log = new SentLog(3);
  for (let seq = 1; seq <= 5; seq++) log.set(seq, message(seq));
  t.same(log.get(5), message(5));
  t.same(log.get(3), message(3));
  t.equal(log.get(2), undefined, 'out of the window');
  t.equal(log.get(6), undefined, 'never sent');
  t.equal(log.delete(4), true);
  t.equal(log.get(4), undefined);
  t.equal(log.delete(4), false);
  log.clear();
  t.equal(log.get(5), undefined, 'clear (a reset) forgets all');
});

t.test('the byte ring: a message overwritten is gone, one never cut, one too long not kept', async (t) => {
  // A window of 10 has the minimum ring, 64 KiB: 7 messages of 10,000 bytes wrap it.
  const log = new SentLog(10);
  const big = (seq: number) => message(seq, `58=${String(seq).repeat(9_990 / String(seq).length)}\x01`);
  for (let seq = 1; seq <= 9; seq++) log.set(seq, big(seq));
  t.same(log.get(9), big(9), 'the newest, written after the wrap, whole');
  t.same(log.get(4), big(4), 'an older one not yet overwritten');
  t.equal(log.get(1), undefined, 'overwritten by the wrap');
  log.set(10, message(10, 'x'.repeat(70_000)));
  t.equal(log.get(10), undefined, 'longer than the ring: not kept (a resend gap-fills it)');
  t.same(log.get(9), big(9));
});

t.test('a message copied from its frame is kept as `set` keeps it, across the ring’s wrap', async (t) => {
  const log = new SentLog(10);
  const out = new FrameWriter(4096);
  const big = (seq: number) => message(seq, `58=${String(seq).repeat(9_990 / String(seq).length)}\x01`);
  for (let seq = 1; seq <= 12; seq++) {
    const m = seq % 2 === 0 ? big(seq) : message(seq);
    const bodyAt = out.frame(m.msgType, 'TESSERA', 'BUYER', seq, m.sendingTime, m.body);
    const timeStart = bodyAt - m.sendingTime.length - 1;
    log.setFromFrame(seq, m.msgType, out.bytes, timeStart, m.sendingTime.length, bodyAt + m.body.length);
    t.same(log.get(seq), m, `seq ${seq}`);
  }
  t.same(log.get(11), message(11));
  t.equal(log.get(2), undefined, 'gone: its slot and bytes taken by later ones');
});
