import t from 'tap';
import {
  assertMutableFolder,
  defaultFolders,
  isVirtualFolder,
  validateFolderName,
} from '../../src/core/folders.ts';

t.test('a mailbox starts with Inbox and the RFC 6154 special-use folders', async (t) => {
  const folders = defaultFolders('alice');
  t.same(
    folders.map((f) => [f.id, f.name, f.special_use]),
    [
      ['inbox', 'Inbox', undefined],
      ['all', 'All', '\\All'],
      ['archive', 'Archive', '\\Archive'],
      ['drafts', 'Drafts', '\\Drafts'],
      ['flagged', 'Flagged', '\\Flagged'],
      ['junk', 'Junk', '\\Junk'],
      ['sent', 'Sent', '\\Sent'],
      ['trash', 'Trash', '\\Trash'],
    ],
  );
  t.ok(folders.every((f) => f.user_id === 'alice'));
  t.ok(isVirtualFolder('all'));
  t.notOk(isVirtualFolder('inbox'));
});

t.test('custom folder names', async (t) => {
  t.equal(validateFolderName('  Work ', []), 'Work');
  t.throws(() => validateFolderName('', []), { code: 'MAIL_INVALID_FOLDER_NAME' });
  t.throws(() => validateFolderName('a/b', []), { code: 'MAIL_INVALID_FOLDER_NAME' });
  t.throws(() => validateFolderName('x'.repeat(101), []), { code: 'MAIL_INVALID_FOLDER_NAME' });
  t.throws(() => validateFolderName('TRASH', []), { code: 'MAIL_INVALID_FOLDER_NAME' });
  t.throws(() => validateFolderName('work', ['Work']), { code: 'MAIL_FOLDER_EXISTS' });
});

t.test('special folders are fixed', async (t) => {
  t.throws(() => assertMutableFolder('inbox'), { code: 'MAIL_SPECIAL_FOLDER' });
  t.throws(() => assertMutableFolder('junk'), { code: 'MAIL_SPECIAL_FOLDER' });
  t.doesNotThrow(() => assertMutableFolder('01a2-custom'));
});
