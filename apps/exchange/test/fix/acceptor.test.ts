/**
 * The acceptor over a real socket, with a hand-driven client (our codec): what QuickFIX/J does not
 * easily do on purpose — garbled frames, gaps, a second logon of the same SenderCompID, a bad
 * password — and the sequence numbers left in the store.
 */
import { connect, type Socket } from 'node:net';
import t from 'tap';
import { decode, encode, FrameReader, type Field } from '../../src/fix/codec.ts';
import { utcTimestamp } from '../../src/fix/utc-timestamp.ts';
import { startVenue } from './harness.ts';

class RawClient {
  readonly frames: string[] = [];
  readonly socket: Socket;
  closed = false;
  seq = 1;
  readonly #reader = new FrameReader();
  #wake: () => void = () => {};

  readonly sender: string;

  constructor(port: number, sender = 'CLIENT1') {
    this.sender = sender;
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.frames.push(...this.#reader.push(chunk.toString('latin1')));
      this.#wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.#wake();
    });
    this.socket.on('error', () => {});
  }

  send(type: string, body: Field[] = [], seq = this.seq++): void {
    this.socket.write(
      encode([
        [35, type],
        [49, this.sender],
        [56, 'TESSERA'],
        [34, String(seq)],
        [52, utcTimestamp(Date.now())],
        ...body,
      ]),
      'latin1',
    );
  }

  logon(password = 'pw1'): void {
    this.send('A', [
      [98, '0'],
      [108, '30'],
      [554, password],
    ]);
  }

  /** The next received frame, readable (`35=…|34=…|…`), or 'closed'. */
  async next(ms = 30_000): Promise<string> {
    const deadline = Date.now() + ms;
    while (this.frames.length === 0 && !this.closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        setTimeout(resolve, 50);
      });
    }
    const frame = this.frames.shift();
    if (frame === undefined) return this.closed ? 'closed' : 'timeout';
    const m = decode(frame);
    if ('garbled' in m) return `garbled ${m.garbled}`;
    return m.fields
      .filter(([tag]) => ![49, 56, 52].includes(tag))
      .map(([k, v]) => `${k}=${v}`)
      .join('|');
  }

  close(): void {
    this.socket.destroy();
  }
}

t.test('a wrong password gets no answer but a closed connection', async (t) => {
  const venue = await startVenue(t);
  const c = new RawClient(venue.current().acceptor.port);
  c.logon('wrong');
  t.equal(await c.next(), 'closed');
});

t.test('garbled frames are dropped without using a number; gaps are asked for', async (t) => {
  const venue = await startVenue(t);
  const c = new RawClient(venue.current().acceptor.port);
  t.teardown(() => c.close());
  c.logon();
  t.equal(await c.next(), '35=A|34=1|98=0|108=30');
  // A bad checksum: dropped (FIX: garbled), so seq 2 is still expected.
  c.socket.write(
    encode([
      [35, '1'],
      [49, 'CLIENT1'],
      [56, 'TESSERA'],
      [34, '2'],
      [52, utcTimestamp(Date.now())],
      [112, 'lost'],
    ]).replace(/10=\d{3}/, '10=000'),
  );
  c.send('1', [[112, 'kept']], 2);
  t.equal(await c.next(), '35=0|34=2|112=kept');
  // Seq 5 after 2: a ResendRequest from 3; the client gap-fills, then 5 counts.
  c.send('1', [[112, 'early']], 5);
  t.equal(await c.next(), '35=2|34=3|7=3|16=0');
  c.send(
    '4',
    [
      [123, 'Y'],
      [36, '5'],
    ],
    3,
  );
  c.send('1', [[112, 'now']], 5);
  t.equal(await c.next(), '35=0|34=4|112=now');
  // A message type FIX 4.4 does not have: a session-level Reject.
  c.send('ZZ', [], 6);
  t.match(await c.next(), /^35=3\|34=5\|45=6\|371=35\|372=ZZ\|373=11\|/);
  // An application message the acceptor does not take: a BusinessMessageReject.
  c.send('V', [[262, 'md']], 7);
  t.match(await c.next(), /^35=j\|34=6\|45=7\|372=V\|380=3\|/);
  c.send('5', [], 8);
  t.equal(await c.next(), '35=5|34=7');
  t.equal(await c.next(), 'closed');
  t.same(venue.current().acceptor.store.load('CLIENT1'), { nextIn: 9, nextOut: 8 }, 'the numbers are stored');
});

t.test('one session per SenderCompID; Logon after a restart goes on from the stored numbers', async (t) => {
  const venue = await startVenue(t);
  const first = new RawClient(venue.current().acceptor.port);
  t.teardown(() => first.close());
  first.logon();
  t.equal(await first.next(), '35=A|34=1|98=0|108=30');
  const second = new RawClient(venue.current().acceptor.port);
  second.logon();
  t.equal(await second.next(), 'closed', 'the second Logon of CLIENT1 is refused');
  first.send('1', [[112, 'still here']]);
  t.equal(await first.next(), '35=0|34=2|112=still here');
  first.send('5');
  t.equal(await first.next(), '35=5|34=3');
  t.equal(await first.next(), 'closed');

  const after = await venue.restart();
  const again = new RawClient(after.acceptor.port);
  t.teardown(() => again.close());
  again.seq = 4;
  again.logon();
  t.equal(await again.next(), '35=A|34=4|98=0|108=30', 'our next number survives the restart');
  again.send('1', [[112, 'in step']]);
  t.equal(await again.next(), '35=0|34=5|112=in step', 'and theirs: no ResendRequest');
  const low = new RawClient(after.acceptor.port, 'CLIENT2');
  t.teardown(() => low.close());
  low.logon('pw2');
  t.equal(await low.next(), '35=A|34=1|98=0|108=30');
});

t.test('a reconnected session gets its ExecutionReports again on a ResendRequest', async (t) => {
  const venue = await startVenue(t);
  await venue.current().service.deposit('alice', 1_000_000);
  const first = new RawClient(venue.current().acceptor.port);
  t.teardown(() => first.close());
  first.logon();
  t.equal(await first.next(), '35=A|34=1|98=0|108=30');
  first.send('D', [
    [11, 'c1'],
    [55, 'AAPL'],
    [54, '1'],
    [60, utcTimestamp(Date.now())],
    [38, '10'],
    [40, '2'],
    [44, '100'],
  ]);
  const report = await first.next();
  t.match(report, /^35=8\|34=2\|37=\d+\|11=c1\|/);
  first.send('5');
  t.equal(await first.next(), '35=5|34=3');

  const again = new RawClient(venue.current().acceptor.port);
  t.teardown(() => again.close());
  again.seq = 4;
  again.logon();
  t.equal(await again.next(), '35=A|34=4|98=0|108=30');
  again.send('2', [
    [7, '1'],
    [16, '0'],
  ]);
  t.match(await again.next(), /^35=4\|34=1\|43=Y\|122=[^|]+\|123=Y\|36=2$/, 'the Logon is gap-filled');
  const resent = await again.next();
  t.match(resent, /^35=8\|34=2\|43=Y\|122=[^|]+\|37=\d+\|11=c1\|/, 'the report comes again, PossDupFlag set');
  t.equal(resent.replace(/\|43=Y\|122=[^|]+/, ''), report, 'with the same body');
  t.match(
    await again.next(),
    /^35=4\|34=3\|43=Y\|122=[^|]+\|123=Y\|36=5$/,
    'the Logout and Logon are gap-filled',
  );
});
