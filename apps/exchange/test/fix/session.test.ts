import t from 'tap';
import { decode, encode, fieldsText, type Field, type FixMessage } from '../../src/fix/codec.ts';
import { FrameWriter } from '../../src/fix/frame-writer.ts';
import type { SentStore } from '../../src/fix/resend.ts';
import { SentLog } from '../../src/fix/sent-log.ts';
import { FixSession, type SentMessage, type SessionAction, type Sequences } from '../../src/fix/session.ts';
import { utcTimestamp } from '../../src/fix/utc-timestamp.ts';

const T0 = Date.UTC(2026, 0, 5, 15, 0, 0);

/** A message from the client CLIENT to TESSERA. */
function msg(type: string, seq: number, body: Field[] = [], header: Field[] = []): FixMessage {
  const decoded = decode(
    encode([
      [35, type],
      [49, 'CLIENT'],
      [56, 'TESSERA'],
      [34, String(seq)],
      [52, utcTimestamp(T0)],
      ...header,
      ...body,
    ]),
  );
  if ('garbled' in decoded) throw new Error(decoded.garbled);
  return decoded;
}

/** The frames sent, as readable `tag=value|…` without 8, 9, 10, 52 and 122. */
function sent(actions: readonly SessionAction[]): string[] {
  return actions.flatMap((a) => {
    if (a.kind !== 'send') return [];
    const m = decode(a.frame);
    if ('garbled' in m) throw new Error(m.garbled);
    return [
      m.fields
        .filter(([tag]) => tag !== 52 && tag !== 122 && tag !== 49 && tag !== 56)
        .map(([k, v]) => `${k}=${v}`)
        .join('|'),
    ];
  });
}

function session(
  stored: Sequences = { nextIn: 1, nextOut: 1 },
  window?: number,
  sent: SentStore = new Map<number, SentMessage>(),
) {
  return new FixSession({
    compId: 'TESSERA',
    directory: {
      authenticate: (sender, password) => (sender === 'CLIENT' && password === 'pw' ? 'alice' : undefined),
      sequences: () => stored,
      sentMessages: () => sent,
    },
    ...(window === undefined ? {} : { resendWindow: window }),
  });
}

const logon = (seq = 1, extra: Field[] = []) =>
  msg('A', seq, [[98, '0'], [108, '30'], [554, 'pw'], ...extra]);

t.test('Logon: a wrong password or CompID closes without a word; a good one is answered', async (t) => {
  for (const bad of [
    msg('A', 1, [
      [108, '30'],
      [554, 'nope'],
    ]),
    msg('D', 1),
    msg('A', 1, [[554, 'pw']]),
  ]) {
    const s = session();
    const actions = s.receive(bad, T0);
    t.same(sent(actions), []);
    t.match(actions.at(-1), { kind: 'close' });
  }
  const s = session();
  const actions = s.receive(logon(), T0);
  t.match(actions[0], { kind: 'logon', senderCompId: 'CLIENT', account: 'alice' });
  t.same(sent(actions), ['35=A|34=1|98=0|108=30']);
  t.same(s.sequences(), { nextIn: 2, nextOut: 2 });
});

t.test('Logon goes on from the stored numbers; ResetSeqNumFlag starts both at 1', async (t) => {
  const s = session({ nextIn: 7, nextOut: 40 });
  t.same(sent(s.receive(logon(7), T0)), ['35=A|34=40|98=0|108=30']);
  t.same(s.sequences(), { nextIn: 8, nextOut: 41 });

  const low = session({ nextIn: 7, nextOut: 40 });
  const actions = low.receive(logon(3), T0);
  t.match(sent(actions), [/^35=5\|34=40\|58=MsgSeqNum too low, expecting 7 but received 3$/]);
  t.match(actions.at(-1), { kind: 'close' });

  const reset = session({ nextIn: 7, nextOut: 40 });
  t.same(sent(reset.receive(logon(1, [[141, 'Y']]), T0)), ['35=A|34=1|98=0|108=30|141=Y']);
  t.same(reset.sequences(), { nextIn: 2, nextOut: 2 });
});

t.test('a gap is asked for once, later messages wait for the resend, duplicates are dropped', async (t) => {
  const s = session({ nextIn: 1, nextOut: 1 });
  s.receive(logon(), T0);
  t.same(sent(s.receive(msg('D', 4), T0)), ['35=2|34=2|7=2|16=0'], 'ResendRequest from 2 to the end');
  t.same(s.receive(msg('D', 5), T0), [], 'asked once per gap');
  const replay = [2, 3, 4, 5].map((seq) => s.receive(msg('D', seq, [], [[43, 'Y']]), T0));
  t.same(
    replay.map((a) => a.map((x) => x.kind)),
    [['app'], ['app'], ['app'], ['app']],
  );
  t.same(s.receive(msg('D', 3, [], [[43, 'Y']]), T0), [], 'a duplicate is dropped');
  t.equal(s.nextIn, 6);
  const low = s.receive(msg('D', 2), T0);
  t.match(sent(low), [/35=5.*58=MsgSeqNum too low, expecting 6 but received 2/]);
  t.equal(s.state, 'closed');
});

t.test('SequenceReset: gap fill moves the next number up; reset mode ignores MsgSeqNum', async (t) => {
  const s = session();
  s.receive(logon(), T0);
  t.same(
    s.receive(
      msg('4', 2, [
        [123, 'Y'],
        [36, '10'],
      ]),
      T0,
    ),
    [],
  );
  t.equal(s.nextIn, 10);
  t.match(
    sent(
      s.receive(
        msg('4', 10, [
          [123, 'Y'],
          [36, '5'],
        ]),
        T0,
      ),
    ),
    [/^35=3\|.*45=10\|371=36\|372=4\|373=5/],
  );
  t.same(s.receive(msg('4', 99, [[36, '50']]), T0), []);
  t.equal(s.nextIn, 50);
});

t.test('a ResendRequest resends recent application messages and gap-fills the rest', async (t) => {
  const s = session({ nextIn: 1, nextOut: 1 }, 2);
  s.receive(logon(), T0); // our 1
  s.send('8', fieldsText([[11, 'a']]), T0); // 2, pushed out of the window by 4
  s.receive(msg('1', 2, [[112, 'x']]), T0); // our 3: Heartbeat
  s.send('8', fieldsText([[11, 'b']]), T0); // 4
  s.send('8', fieldsText([[11, 'c']]), T0); // 5
  const actions = s.receive(
    msg('2', 3, [
      [7, '1'],
      [16, '0'],
    ]),
    T0,
  );
  t.same(sent(actions), ['35=4|34=1|43=Y|123=Y|36=4', '35=8|34=4|43=Y|11=b', '35=8|34=5|43=Y|11=c']);
  t.equal(s.nextOut, 6, 'a resend takes no new numbers');
  const one = s.receive(
    msg('2', 4, [
      [7, '5'],
      [16, '5'],
    ]),
    T0,
  );
  t.same(sent(one), ['35=8|34=5|43=Y|11=c']);
});

t.test('sendInto writes the frame send answers, and keeps it for a resend the same way', async (t) => {
  const bySend = session({ nextIn: 1, nextOut: 1 });
  // Kept in the byte ring, copied from the frame; the other in a Map, from the strings.
  const byWriter = session({ nextIn: 1, nextOut: 1 }, undefined, new SentLog());
  bySend.receive(logon(), T0);
  byWriter.receive(logon(), T0);
  const out = new FrameWriter();
  for (const [i, body] of ['11=a', '11=b|39=2|58=x'].entries()) {
    const encoded = body.replaceAll('|', '\x01') + '\x01';
    const action = bySend.send('8', encoded, T0 + i);
    byWriter.sendInto(out, '8', encoded, T0 + i);
    t.equal(Buffer.concat(out.take()).toString('latin1'), action.kind === 'send' ? action.frame : '');
  }
  t.equal(byWriter.nextOut, bySend.nextOut);
  const resend = msg('2', 2, [
    [7, '2'],
    [16, '0'],
  ]);
  const resent = sent(byWriter.receive(resend, T0));
  t.same(resent, sent(bySend.receive(resend, T0)));
  t.same(resent, ['35=8|34=2|43=Y|11=a', '35=8|34=3|43=Y|11=b|39=2|58=x']);
});

t.test('session-level Reject: unknown MsgType, missing SendingTime, TestRequest without an id', async (t) => {
  const s = session();
  s.receive(logon(), T0);
  t.match(sent(s.receive(msg('ZZ', 2), T0)), [/^35=3\|34=2\|45=2\|371=35\|372=ZZ\|373=11/]);
  const noTime = decode(
    encode([
      [35, 'D'],
      [49, 'CLIENT'],
      [56, 'TESSERA'],
      [34, '3'],
    ]),
  );
  if ('garbled' in noTime) throw new Error('garbled');
  t.match(sent(s.receive(noTime, T0)), [/^35=3\|.*45=3\|371=52\|372=D\|373=1/]);
  t.match(sent(s.receive(msg('1', 4), T0)), [/^35=3\|.*45=4\|371=112\|372=1\|373=1/]);
  const wrong = msg('0', 5, [], []);
  const other = decode(encode(wrong.fields.map(([k, v]) => (k === 49 ? [49, 'MALLORY'] : [k, v]))));
  if ('garbled' in other) throw new Error('garbled');
  const actions = s.receive(other, T0);
  t.match(sent(actions), [/^35=3\|.*373=9/, /^35=5/]);
  t.equal(s.state, 'closed');
});

t.test('heartbeats, a TestRequest after silence, and a close when it is not answered', async (t) => {
  const s = session();
  s.receive(logon(), T0);
  t.same(s.tick(T0 + 10_000), [], 'nothing due yet');
  t.same(sent(s.tick(T0 + 30_000)), ['35=0|34=2'], 'a Heartbeat when we sent nothing for HeartBtInt');
  t.match(
    sent(s.tick(T0 + 36_000)),
    [/^35=1\|34=3\|112=TEST-/],
    'a TestRequest after 1.2 × HeartBtInt of silence',
  );
  t.match(s.tick(T0 + 66_000), [{ kind: 'close', reason: 'no answer to a TestRequest' }]);
});

t.test('Logout: theirs is answered, ours waits for the answer', async (t) => {
  const s = session();
  s.receive(logon(), T0);
  const actions = s.receive(msg('5', 2), T0);
  t.same(sent(actions), ['35=5|34=2']);
  t.match(actions.at(-1), { kind: 'close' });

  const ours = session();
  ours.receive(logon(), T0);
  t.same(sent(ours.logout('closing', T0)), ['35=5|34=2|58=closing']);
  const answer = ours.receive(msg('5', 2), T0);
  t.same(sent(answer), [], 'no second Logout');
  t.match(answer, [{ kind: 'close' }]);
});
