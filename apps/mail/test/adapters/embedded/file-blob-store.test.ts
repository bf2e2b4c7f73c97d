import t from 'tap';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '@tessera/kit/sqlite';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { FileBlobStore } from '../../../src/adapters/embedded/file-blob-store.ts';
import { tempDir } from '../../helpers/mail.ts';

t.test('put, get, read, delete', async (t) => {
  const root = tempDir(t);
  const blobs = new FileBlobStore(root);
  t.equal(await blobs.put('att/61/x/0', Buffer.from('hello')), 5);
  t.equal(
    await blobs.put('raw/m.eml', Readable.from([Buffer.from('a'), Buffer.from('bc')])),
    3,
    'streams are written as they come',
  );
  t.equal((await blobs.read('att/61/x/0'))?.toString(), 'hello');
  const stream = await blobs.get('raw/m.eml');
  t.equal(stream === undefined ? undefined : await text(stream), 'abc');
  await blobs.delete('raw/m.eml');
  t.equal(await blobs.get('raw/m.eml'), undefined);
  t.equal(await blobs.read('raw/none'), undefined);
  t.same(readdirSync(root).sort(), ['att', 'raw'], 'no temporary files left behind');
});

t.test('a failed write leaves no blob and no temporary file', async (t) => {
  const root = tempDir(t);
  const blobs = new FileBlobStore(root);
  const failing = new Readable({
    read() {
      this.destroy(new Error('client went away'));
    },
  });
  await t.rejects(blobs.put('raw/half.eml', failing), /client went away/);
  t.equal(await blobs.read('raw/half.eml'), undefined);
  t.same(readdirSync(`${root}/raw`), []);
});

t.test('keys cannot leave the root', async (t) => {
  const blobs = new FileBlobStore(tempDir(t));
  for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '']) {
    await t.rejects(blobs.put(key, Buffer.from('x')), /invalid blob key/, key);
  }
});

t.test('small blobs are rows of the SQLite file, larger ones files; both read back', async (t) => {
  const root = tempDir(t);
  const db = openSqlite(join(root, 'blobs.db'));
  t.teardown(() => db.close());
  const blobs = new FileBlobStore(join(root, 'blobs'), { small: { db, maxBytes: 4 }, handOffBytes: 0 });
  t.equal(await blobs.put('raw/s.eml', Buffer.from('tiny')), 4);
  t.equal(await blobs.put('raw/l.eml', Buffer.from('large')), 5);
  t.equal(existsSync(join(root, 'blobs/raw/s.eml')), false, 'the small one is no file');
  t.equal(existsSync(join(root, 'blobs/raw/l.eml')), true);
  t.same(
    db
      .prepare('SELECT key FROM blobs')
      .all()
      .map((r) => r.key),
    ['raw/s.eml'],
  );
  t.equal((await blobs.read('raw/s.eml'))?.toString(), 'tiny');
  t.equal((await blobs.read('raw/l.eml'))?.toString(), 'large');
  const stream = await blobs.get('raw/s.eml');
  t.equal(stream === undefined ? undefined : await text(stream), 'tiny');
  // The same key put again, larger: the file replaces the row.
  await blobs.put('raw/s.eml', Buffer.from('grown'));
  t.equal((await blobs.read('raw/s.eml'))?.toString(), 'grown');
  await blobs.delete('raw/s.eml');
  await blobs.delete('raw/l.eml');
  t.equal(await blobs.read('raw/s.eml'), undefined);
  t.equal(await blobs.read('raw/l.eml'), undefined);
  t.same(db.prepare('SELECT key FROM blobs').all(), []);
});

t.test('a blob just put is handed to one read without reading it back; later reads read it', async (t) => {
  const root = tempDir(t);
  const blobs = new FileBlobStore(root, { handOffBytes: 8 });
  const data = Buffer.from('abcd');
  await blobs.put('raw/a.eml', data);
  t.equal(await blobs.read('raw/a.eml'), data, 'the very buffer that was put');
  const again = await blobs.read('raw/a.eml');
  t.not(again, data, 'the second read reads the file');
  t.equal(again?.toString(), 'abcd');
  // Beyond handOffBytes the oldest is dropped; what is dropped is still read from its file.
  const first = Buffer.from('1111');
  await blobs.put('raw/1.eml', first);
  await blobs.put('raw/2.eml', Buffer.from('2222'));
  await blobs.put('raw/3.eml', Buffer.from('3333'));
  const read1 = await blobs.read('raw/1.eml');
  t.not(read1, first);
  t.equal(read1?.toString(), '1111');
  await blobs.put('raw/4.eml', Buffer.from('4444'));
  await blobs.delete('raw/4.eml');
  t.equal(await blobs.read('raw/4.eml'), undefined, 'a deleted blob is not handed off');
});
