import t from 'tap';
import { openEmbeddedMail } from '../src/adapters/embedded/open-embedded.ts';
import { addMailUser, isAccountType } from '../src/users.ts';
import { tempDir } from './helpers/mail.ts';

t.test('addMailUser makes the mailbox once and sets its type', async (t) => {
  const dataDir = tempDir(t);
  const first = await addMailUser({ dataDir, userId: 'alice' });
  t.equal(first.created, true);
  t.equal(first.type, 'personal');
  t.same(
    first.folders.map((f) => f.id),
    ['inbox', 'all', 'archive', 'drafts', 'flagged', 'junk', 'sent', 'trash'],
  );
  const again = await addMailUser({ dataDir, userId: 'alice', type: 'business' });
  t.equal(again.created, false);
  t.equal(again.type, 'business');
  const ports = openEmbeddedMail({ dataDir });
  t.teardown(() => ports.close());
  t.equal(await ports.metadata.hasUser('alice'), true);
  t.equal(await ports.metadata.hasUser('bob'), false);
});

t.test('addMailUser refuses a name that cannot be a mailbox', async (t) => {
  await t.rejects(addMailUser({ dataDir: tempDir(t), userId: 'a b' }), { code: 'MAIL_INVALID_ADDRESS' });
  t.equal(isAccountType('business'), true);
  t.equal(isAccountType('gold'), false);
});
