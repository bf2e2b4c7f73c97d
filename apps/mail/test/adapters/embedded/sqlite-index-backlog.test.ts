// The metadata store's index backlog (sqlite-index-backlog.ts): every filing of a copy is an
// entry, one an older version filed without an entry too, and markIndexed takes off the entries
// it is given, by key, and no other.
import t, { type Test } from 'tap';
import { openEmbeddedMail, type EmbeddedMailPorts } from '../../../src/adapters/embedded/open-embedded.ts';
import { parseSearchQuery } from '../../../src/core/search-query.ts';
import type { NewCopy } from '../../../src/ports.ts';
import { createIndexer } from '../../../src/roles/indexer.ts';
import { tempDir } from '../../helpers/mail.ts';
import { storedMessage } from '../../helpers/old-metadata.ts';

function open(t: Test): EmbeddedMailPorts {
  const ports = openEmbeddedMail({ dataDir: tempDir(t), synchronous: 'normal' });
  t.teardown(() => ports.close());
  return ports;
}

/** Copy `i` for u0 (i a multiple of 3), its subject `word<i>`, with no thread yet. */
function copy(i: number): NewCopy {
  const message = storedMessage(i, { subject: `word${i}` });
  const entries = Object.entries(message).filter(([key]) => key !== 'thread_id');
  return { message: Object.fromEntries(entries) as NewCopy['message'], headers: { references: [] } };
}

t.test('a copy an older version filed without an entry, filed again, is indexed', async (t) => {
  const ports = open(t);
  // The older version: the message stored, no backlog entry, and its index write never ran.
  await ports.metadata.insertMessage(storedMessage(6, { subject: 'word6' }));
  const [filed] = await ports.metadata.fileCopies([copy(6)]);
  t.equal(filed?.inserted, false, 'already there');
  t.match(await ports.metadata.unindexed(10), [{ email_id: copy(6).message.email_id }], 'on the backlog');
  t.equal(await createIndexer(ports).drainBacklog(), 1);
  const hits = await ports.search.search('u0', parseSearchQuery('word6'), { limit: 5 });
  t.same(
    hits.map((h) => h.email_id),
    [copy(6).message.email_id],
    'searchable',
  );
});

t.test('markIndexed takes off the entries given, whatever their order, and no other', async (t) => {
  const ports = open(t);
  await ports.metadata.fileCopies([copy(0), copy(3), copy(9)]);
  const [first, second, third] = await ports.metadata.unindexed(10);
  if (first === undefined || second === undefined || third === undefined) throw new Error('three entries');
  await ports.metadata.markIndexed([third.entry, second.entry]);
  t.same(await ports.metadata.unindexed(10), [first], 'the older entry not given stays');
  await ports.metadata.markIndexed([first.entry, second.entry]);
  t.same(await ports.metadata.unindexed(10), [], 'a key already gone is no error');
});
