/**
 * kill -9 in the window between the exchange's journal and the FIX sequence store: the order is
 * journaled, the inbound MsgSeqNum that brought it is not saved. After the restart the acceptor
 * asks for a resend, QuickFIX/J (an independent FIX engine, with its own file store) resends the
 * NewOrderSingle with PossDupFlag, and the exchange answers the order's state: one order, the state
 * of a venue that took it once. See docs/exchange-fix.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { openSqlite } from '@tessera/kit';
import { SqliteSequenceStore } from '../../src/fix/sqlite-sequence-store.ts';
import { crashService, fundCrashAccounts } from './crash-setup.ts';
import { buildClient, QuickFixClient } from './quickfixj-client.ts';

// Two exchange processes and two JVMs start here: slow on a loaded machine.
t.setTimeout(240_000);
const classpath = buildClient();
const VENUE = fileURLToPath(new URL('./crash-venue.ts', import.meta.url));

interface Venue {
  readonly child: ChildProcess;
  readonly port: number;
  readonly exited: Promise<NodeJS.Signals | null>;
}

/** Starts crash-venue.ts on `dir`; resolves once it listens. */
function startVenue(dir: string, fault: boolean): Promise<Venue> {
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--disable-warning=ExperimentalWarning', VENUE, dir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, FIX_TEST_KILL_AFTER_JOURNAL: fault ? '1' : '' },
    },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the venue did not listen within 60 s'));
    }, 60_000);
    void exited.then((signal) => reject(new Error(`the venue exited before listening (${signal})`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const port = /^port (\d+)$/.exec(line);
      if (port === null) return;
      clearTimeout(timer);
      resolve({ child, port: Number(port[1]), exited });
    });
  });
}

/** What the venue holds after taking alice's order c1 exactly once. */
async function digestAfterOneOrder(): Promise<string> {
  const { service } = crashService(':memory:');
  await fundCrashAccounts(service);
  service.submitOrder('alice', {
    symbol: 'AAPL',
    side: 'buy',
    price: 100,
    orderType: 'limit',
    quantity: 10,
    clientOrderId: 'c1',
  });
  await service.durable();
  const digest = service.digest();
  await service.close();
  return digest;
}

t.test(
  'kill -9 after the journal, before the sequence store: the PossDup resend places nothing',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'ex-fix-crash-'));
    const store = mkdtempSync(join(tmpdir(), 'qfj-crash-store-'));
    t.teardown(() => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(store, { recursive: true, force: true });
    });

    // 1. The order goes in; the venue dies between its journal commit and saving MsgSeqNum 2.
    const crashing = await startVenue(dir, true);
    t.teardown(() => crashing.child.kill('SIGKILL'));
    const first = new QuickFixClient(classpath, crashing.port, 'CLIENT1', 'pw1', store);
    t.teardown(() => first.stop());
    await first.next((r) => r.type === 'LOGON');
    first.send('order c1 AAPL buy 100 10');
    t.equal(await crashing.exited, 'SIGKILL', 'the venue was killed at the fault point');
    await first.stop();
    {
      const { service, journal } = crashService(join(dir, 'journal.db'));
      t.equal(service.orders('alice').data.length, 1, 'the order is in the journal');
      t.equal(journal.lastSeq, 3);
      await service.close();
      const fixDb = openSqlite(join(dir, 'fix.db'));
      t.equal(new SqliteSequenceStore(fixDb).load('CLIENT1').nextIn, 2, 'its MsgSeqNum was not saved');
      fixDb.close();
    }

    // 2. Restart: the acceptor asks for 2 again, QuickFIX/J resends the order with PossDupFlag.
    const venue = await startVenue(dir, false);
    t.teardown(() => venue.child.kill('SIGKILL'));
    const again = new QuickFixClient(classpath, venue.port, 'CLIENT1', 'pw1', store);
    t.teardown(() => again.stop());
    const status = await again.message('8', 30_000);
    t.match(Object.fromEntries(status.tags), { 11: 'c1', 150: 'I', 39: '0', 151: '10', 14: '0' });
    t.ok(
      again.lines.some((l) => l.startsWith('IN 2 ') && l.includes('|7=2|')),
      'the acceptor asked for a resend from 2',
    );
    // The same ClOrdID sent as a new order (no PossDupFlag): a duplicate, rejected.
    again.send('order c1 AAPL buy 100 10');
    t.match(Object.fromEntries((await again.message('8')).tags), {
      11: 'c1',
      150: '8',
      103: '6',
      58: /^EX_DUPLICATE_CLIENT_ORDER_ID/,
    });
    await again.logout();
    venue.child.kill('SIGTERM');
    await venue.exited;

    const { service } = crashService(join(dir, 'journal.db'));
    t.teardown(() => service.close());
    t.equal(service.orders('alice').data.length, 1, 'exactly one order');
    t.equal(service.digest(), await digestAfterOneOrder(), 'the state of a venue that took c1 once');
  },
);
