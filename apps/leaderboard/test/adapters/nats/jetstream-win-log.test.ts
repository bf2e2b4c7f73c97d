import { randomBytes } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { backend } from '@tessera/testkit';
import t, { type Test } from 'tap';
import {
  openJetStreamWinLog,
  type JetStreamWinLogOptions,
} from '../../../src/adapters/nats/jetstream-win-log.ts';
import { MatchClaims } from '../../../src/adapters/nats/match-claims.ts';
import { encodeWin } from '../../../src/adapters/nats/win-event.ts';
import { newWin, readAll, winLogSuite } from '../../ports/win-log.suite.ts';

t.setTimeout(600_000);

const server = await backend('nats');
t.teardown(() => server.stop());
const nc = await connect({ servers: server.url });
t.teardown(() => nc.close());

/** A stream, subjects and bucket of the test's own: the server may be shared. */
async function namespace(t: Test, duplicateWindowMs = 120_000): Promise<JetStreamWinLogOptions> {
  const id = randomBytes(4).toString('hex');
  const options: JetStreamWinLogOptions = {
    stream: `T${id}_WINS`,
    subjectPrefix: `t${id}.lb.wins`,
    matchBucket: `T${id}_MATCHES`,
    replicas: 1,
    duplicateWindowMs,
    matchIdTtlMs: 0,
  };
  t.teardown(async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(options.stream).catch(() => false);
    await jsm.streams.delete(`KV_${options.matchBucket}`).catch(() => false);
  });
  return options;
}

async function open(t: Test, duplicateWindowMs?: number) {
  const options = await namespace(t, duplicateWindowMs);
  const log = await openJetStreamWinLog(nc, options);
  t.teardown(() => log.close());
  const claims = new MatchClaims(await new Kvm(nc).open(options.matchBucket));
  return { log, options, claims };
}

t.test('while the connection is down, an append is refused at once and claims nothing', async (t) => {
  const options = await namespace(t);
  let down: string | undefined = 'disconnected from the test; reconnecting';
  const log = await openJetStreamWinLog(nc, { ...options, connection: { down: () => down } });
  t.teardown(() => log.close());
  const claims = new MatchClaims(await new Kvm(nc).open(options.matchBucket));

  await t.rejects(log.append(newWin('alice', 2, 'm-down')), {
    name: 'NatsDisconnectedError',
    message: /NATS: disconnected from the test/,
  });
  t.equal(await claims.get('m-down'), undefined, 'no claim left for a retry to settle');
  t.equal(await log.lastSeq(newWin('alice', 2).period), 0, 'nothing published');

  down = undefined;
  const retry = await log.append(newWin('alice', 2, 'm-down'));
  t.equal(retry.duplicate, false, 'the retry is the first write');
  t.equal(retry.win.seq, 1);
});

t.test('the WinLog port suite, on JetStream', async (t) => {
  winLogSuite(t, async (t) => (await open(t)).log);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const WINDOW = 3_000;

t.test('beyond the de-duplication window, the match record still drops a retry', async (t) => {
  const { log } = await open(t, WINDOW);
  const first = await log.append(newWin('alice', 2, 'late'));
  await sleep(WINDOW + 500);
  const retry = await log.append(newWin('alice', 2, 'late'));
  t.equal(retry.duplicate, true);
  t.same(retry.win, first.win);
  const reused = await log.append(newWin('mallory', 5, 'late'));
  t.same(reused.win, first.win, 'reused with other content: the original');
  t.equal((await readAll(log, '2026-11')).flat().length, 1);
});

t.test('a writer that crashed after publishing: a retry past the window finds its message', async (t) => {
  const { log, options, claims } = await open(t, WINDOW);
  const win = newWin('bob', 4, 'crashed-after');
  // What the crashed writer left: a claim, and its message in the stream, but no seq in the claim.
  await claims.create('crashed-after', win, Date.now());
  const ack = await jetstream(nc).publish(`${options.subjectPrefix}.2026-11`, encodeWin(win), {
    msgID: 'crashed-after',
  });
  await sleep(WINDOW + 500);
  const retry = await log.append(newWin('bob', 4, 'crashed-after'));
  t.equal(retry.duplicate, true);
  t.equal(retry.win.seq, ack.seq, 'the message the writer published');
  t.equal((await readAll(log, '2026-11')).flat().length, 1, 'not published twice');
  t.equal((await claims.get('crashed-after'))?.seq, ack.seq, 'the claim is completed');
});

t.test('a writer that crashed before publishing: a retry records the claimed win once', async (t) => {
  const { log, claims } = await open(t, WINDOW);
  await claims.create('crashed-before', newWin('carol', 3, 'crashed-before'), Date.now() - WINDOW);
  const retry = await log.append(newWin('carol', 3, 'crashed-before'));
  t.equal(retry.duplicate, true, 'the claim came first');
  t.match(retry.win, { userId: 'carol', points: 3, matchId: 'crashed-before' });
  const again = await log.append(newWin('carol', 3, 'crashed-before'));
  t.same(again.win, retry.win);
  t.equal((await readAll(log, '2026-11')).flat().length, 1);
});

t.test('a writer that crashed before publishing, after every other win of the period', async (t) => {
  const { log, claims } = await open(t, WINDOW);
  await log.append(newWin('hal', 1, 'before'));
  await sleep(2_500); // the claim comes well after the period's last message
  await claims.create('quiet', newWin('ivy', 2, 'quiet'), Date.now());
  await sleep(WINDOW);
  const retry = await log.append(newWin('ivy', 2, 'quiet'));
  t.match(
    retry.win,
    { userId: 'ivy', points: 2 },
    'recorded, without waiting for a message that never comes',
  );
  t.equal((await readAll(log, '2026-11')).flat().length, 2);
});

t.test('a pending claim inside the window: the claimed content is published, not the retry', async (t) => {
  const { log, claims } = await open(t, 60_000);
  await claims.create('pending', newWin('dave', 1, 'pending'), Date.now());
  const retry = await log.append(newWin('eve', 7, 'pending'));
  t.match(retry.win, { userId: 'dave', points: 1 }, 'one match id, one win: the first claim');
  t.equal((await readAll(log, '2026-11')).flat().length, 1);
});

t.test('a read longer than one batch: every win, in order, in batches of at most 10,000', async (t) => {
  const { log } = await open(t);
  const total = 10_050;
  let next = 0;
  await Promise.all(
    Array.from({ length: 100 }, async () => {
      while (next < total) await log.append(newWin(`u${next++ % 97}`, 1));
    }),
  );
  const batches = await readAll(log, '2026-11');
  t.ok(
    batches.every((batch) => batch.length > 0 && batch.length <= 10_000),
    'bounded batches',
  );
  const seqs = batches.flat().map((w) => w.seq);
  t.equal(seqs.length, total, 'every win');
  t.ok(
    seqs.every((seq, i) => i === 0 || seq > seqs[i - 1]!),
    'in seq order',
  );
  t.equal((await readAll(log, '2026-11', seqs[9_999])).flat().length, 50, 'from the middle');
});

t.test('the log survives a reopen: periods, last seq, match ids', async (t) => {
  const options = await namespace(t);
  const first = await openJetStreamWinLog(nc, options);
  const { win } = await first.append(newWin('frank', 2, 'kept'));
  await first.close();
  const second = await openJetStreamWinLog(nc, options);
  t.same(await second.periods(), ['2026-11']);
  t.equal(await second.lastSeq('2026-11'), win.seq);
  t.same((await second.append(newWin('frank', 2, 'kept'))).win, win);
  await second.close();
});

t.test("an existing stream's own de-duplication window is the one the log reasons with", async (t) => {
  const options = await namespace(t, WINDOW);
  await (await openJetStreamWinLog(nc, options)).close();
  // Reopened with a longer window in the settings: the stream keeps its 3 s.
  const log = await openJetStreamWinLog(nc, { ...options, duplicateWindowMs: 120_000 });
  const claims = new MatchClaims(await new Kvm(nc).open(options.matchBucket));
  const win = newWin('gina', 1, 'old-claim');
  await claims.create('old-claim', win, Date.now());
  await jetstream(nc).publish(`${options.subjectPrefix}.2026-11`, encodeWin(win), { msgID: 'old-claim' });
  await sleep(WINDOW + 500);
  // Past the stream's window a second publish would not be dropped: the log must look instead.
  await log.append(newWin('gina', 1, 'old-claim'));
  t.equal((await readAll(log, '2026-11')).flat().length, 1, 'recorded once');
});

t.test('a stream of other subjects is refused, not written past', async (t) => {
  const options = await namespace(t);
  await (await openJetStreamWinLog(nc, options)).close();
  await t.rejects(
    openJetStreamWinLog(nc, { ...options, subjectPrefix: 'elsewhere.wins' }),
    /another stream name/,
  );
});
