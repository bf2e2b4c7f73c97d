// Closing the embedded ports: the writes submitted before close commit first, then the
// connections close (and the checkpointers last, after every writer).
import t from 'tap';
import { openEmbeddedMail } from '../../../src/adapters/embedded/open-embedded.ts';
import { tempDir } from '../../helpers/mail.ts';

t.test('close commits the writes submitted before it, then closes the connections', async (t) => {
  const dataDir = tempDir(t);
  const ports = openEmbeddedMail({ dataDir, synchronous: 'normal' });
  // Not awaited: their group commits run on a later turn than close's call.
  const writes = [
    ports.queue.enqueue('mail.inbound', 'j1', { n: 1 }),
    ports.blobs.put('b1', Buffer.from('small blob')),
    ports.push.publish('alice', { type: 'message.new', email_id: 'e1' }),
  ];
  await ports.close();
  const settled = await Promise.allSettled(writes);
  t.same(
    settled.map((s) => s.status),
    ['fulfilled', 'fulfilled', 'fulfilled'],
    'each write committed before its connection closed',
  );
  await t.rejects(ports.queue.enqueue('mail.inbound', 'late', {}), /closed/, 'none taken after');
  const again = openEmbeddedMail({ dataDir, synchronous: 'normal' });
  t.teardown(() => again.close());
  t.equal((await again.queue.stats('mail.inbound')).size, 1, 'the job is there');
  t.same(await again.blobs.read('b1'), Buffer.from('small blob'), 'the blob is there');
});
