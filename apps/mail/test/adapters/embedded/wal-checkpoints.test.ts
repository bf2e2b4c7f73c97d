// Mail's SQLite checkpoints off the committing threads (wal-checkpoints.ts): a writer's commits
// never copy the WAL back (the database file does not grow while they go on), the checkpointers'
// threads do, and under a stream of writes the WAL starts over (bounded) through the writers'
// copy-backs the checkpointers ask for.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '@tessera/kit/sqlite';
import { pollUntil, walRestarts } from '@tessera/testkit';
import t from 'tap';
import { openEmbeddedMail, type EmbeddedMailOptions } from '../../../src/adapters/embedded/open-embedded.ts';
import { walRestartFlags, walWriter } from '../../../src/adapters/embedded/wal-checkpoints.ts';
import { tempDir } from '../../helpers/mail.ts';

/** 4 KiB blobs: about one WAL page each; 1,500 of them cross SQLite's 1,000-page autocheckpoint. */
const BLOB = Buffer.alloc(4000, 'x');

async function putBlobs(
  ports: ReturnType<typeof openEmbeddedMail>,
  prefix: string,
  count: number,
): Promise<void> {
  await Promise.all(Array.from({ length: count }, (_, i) => ports.blobs.put(`${prefix}-${i}`, BLOB)));
}

const size = (file: string): number => statSync(file).size;

t.test("with the checkpointers' flags, no commit copies the WAL back; without, SQLite's does", async (t) => {
  const dbSizeAfter = async (walCheckpoints: EmbeddedMailOptions['walCheckpoints']): Promise<number> => {
    const dataDir = tempDir(t);
    const ports = openEmbeddedMail({
      dataDir,
      synchronous: 'normal',
      ...(walCheckpoints ? { walCheckpoints } : {}),
    });
    for (let batch = 0; batch < 10; batch++) await putBlobs(ports, `b${batch}`, 150);
    const bytes = size(join(dataDir, 'mail', 'blobs.db'));
    await ports.close();
    return bytes;
  };
  const off = await dbSizeAfter(walRestartFlags());
  const automatic = await dbSizeAfter(undefined);
  t.ok(off < 1024 * 1024, `blobs.db stays ${off} bytes: its 6 MB are all in the WAL`);
  t.ok(
    automatic > 2 * 1024 * 1024,
    `with the automatic checkpoint, a commit copied back (${automatic} bytes)`,
  );
});

t.test('a raised flag makes the next writer copy back, once; its next write starts the WAL over', (t) => {
  const file = join(tempDir(t), 'x.db');
  const db = openSqlite(file, { synchronous: 'normal' });
  t.teardown(() => db.close());
  const flags = walRestartFlags();
  const beforeBegin = walWriter(db, flags, 'blobs');
  db.exec('CREATE TABLE b (data BLOB)');
  db.exec(`INSERT INTO b VALUES (zeroblob(${1200 * 4096}))`);
  beforeBegin();
  t.ok(size(file) < 64 * 1024, 'not asked: nothing copied back');
  Atomics.store(flags, 4, 1);
  beforeBegin();
  t.equal(Atomics.load(flags, 4), 0, 'the request is taken');
  t.ok(size(file) > 1200 * 4096, `asked: the WAL copied back (${size(file)} bytes)`);
  const restarts = walRestarts(file);
  db.exec("INSERT INTO b VALUES (x'00')");
  t.equal(walRestarts(file), restarts + 1, 'the next write started the WAL over');
  t.end();
});

t.test('under a stream of writes the checkpointers copy the WAL back and it stays bounded', async (t) => {
  const dataDir = tempDir(t);
  const ports = openEmbeddedMail({
    dataDir,
    synchronous: 'normal',
    walCheckpoints: 'own',
    walCheckpointMs: 100,
  });
  t.teardown(() => ports.close());
  const checkpointers = ports.walCheckpointers;
  if (checkpointers === undefined) throw new Error("walCheckpoints: 'own' starts the checkpointers");
  const blobs = join(dataDir, 'mail', 'blobs.db');
  const rounds = () => checkpointers.stats().blobs?.rounds ?? 0;
  // The threads start first (slow under coverage), so that rounds fall between and inside the
  // batches. Bounded: 30 to 100 batches of 100 blobs and queue jobs (12–40 MB), 20 ms apart, ending
  // once 20 rounds (every 100 ms) have run.
  await pollUntil('a first checkpoint round', () => Promise.resolve(rounds() > 0), {
    ms: 30_000,
    intervalMs: 20,
  });
  let batches = 0;
  while (batches < 30 || (batches < 100 && rounds() < 20)) {
    await Promise.all([
      putBlobs(ports, `s${batches}`, 100),
      ...Array.from({ length: 100 }, (_, i) =>
        ports.queue.enqueue('mail.inbound', `j${batches}-${i}`, { i }),
      ),
    ]);
    batches++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const written = batches * 100 * BLOB.length;
  const allCopied = () => {
    const { queue, blobs: b } = checkpointers.stats();
    return [queue, b].every((s) => s !== undefined && s.rounds > 0 && s.frames > 0 && s.copied === s.frames);
  };
  await pollUntil('every frame copied back', () => Promise.resolve(allCopied()), {
    ms: 30_000,
    intervalMs: 20,
    describe: () => Promise.resolve(JSON.stringify(checkpointers.stats())),
  });
  const stats = checkpointers.stats();
  t.equal(stats.blobs?.failures, 0, 'no round failed');
  t.equal(stats.blobs?.copyBackFailures, 0, 'no copy-back failed');
  t.ok(size(blobs) >= written, `blobs.db holds the ${written} bytes written (${size(blobs)})`);
  t.ok(walRestarts(blobs) > 0, `the WAL started over ${walRestarts(blobs)} times`);
  t.ok(
    size(`${blobs}-wal`) < written / 2,
    `the WAL stayed ${size(`${blobs}-wal`)} bytes for ${written} written`,
  );
});
