import t from 'tap';
import { readdirSync } from 'node:fs';
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
