/**
 * The exchange with its FIX acceptor as a process of its own, for the crash-window test. Usage:
 * crash-venue.ts <dir>. Opens the journal and the FIX sequence store in <dir> (funding alice and
 * bob on the first start), listens on a free port and prints `port <n>`; SIGTERM closes it.
 *
 * The fault point is this test harness's own, never a setting of the exchange: with
 * FIX_TEST_KILL_AFTER_JOURNAL=1 in its environment, the sequence store it hands the acceptor kills
 * the process (SIGKILL) at the first save that comes after an order is committed to the journal.
 * The order is then durable and the inbound MsgSeqNum that brought it is not: the crash window
 * between the exchange's journal and the FIX session's store.
 */
import { join } from 'node:path';
import { createLogger, openSqlite } from '@tessera/kit';
import { FixAcceptor } from '../../src/fix/acceptor.ts';
import { authenticator, parseCredentials } from '../../src/fix/credentials.ts';
import { SqliteSequenceStore, type SequenceStore } from '../../src/fix/sqlite-sequence-store.ts';
import { CREDENTIALS } from './harness.ts';
import { crashService, fundCrashAccounts } from './crash-setup.ts';

const dir = process.argv[2]!;
const journalFile = join(dir, 'journal.db');
const { service } = crashService(journalFile);
if (service.seq === 0) await fundCrashAccounts(service);
const fundedSeq = 2;

const fixDb = openSqlite(join(dir, 'fix.db'), { synchronous: 'normal' });
const store = new SqliteSequenceStore(fixDb);
let faulty: SequenceStore = store;
if (process.env.FIX_TEST_KILL_AFTER_JOURNAL === '1') {
  // A second connection sees only what the journal has committed.
  const reader = openSqlite(journalFile);
  const committed = reader.prepare('SELECT COALESCE(MAX(last_seq), 0) AS seq FROM journal');
  faulty = {
    load: (sender) => store.load(sender),
    save(sender, sequences) {
      if ((committed.get() as { seq: number }).seq > fundedSeq) process.kill(process.pid, 'SIGKILL');
      store.save(sender, sequences);
    },
  };
}

const acceptor = await FixAcceptor.start({
  port: 0,
  host: '127.0.0.1',
  compId: 'TESSERA',
  venue: service,
  store: faulty,
  authenticate: authenticator(parseCredentials(CREDENTIALS)),
  logger: createLogger({ level: 'silent', name: 'crash-venue' }),
});
process.stdout.write(`port ${acceptor.port}\n`);
process.once('SIGTERM', () => {
  void (async () => {
    await acceptor.close(500);
    await service.close();
    fixDb.close();
    process.exit(0);
  })();
});
