import { Client } from 'minio';
import t from 'tap';
import { backend } from '../src/backends.ts';

t.setTimeout(900_000); // a cold machine builds MinIO first (go install, several minutes)

t.test('MinIO: a bucket, an object put and read back (mail attachments in distributed mode)', async (t) => {
  const server = await backend('minio');
  t.teardown(() => server.stop());
  const url = new URL(server.url);
  const client = new Client({
    endPoint: url.hostname,
    port: Number(url.port),
    useSSL: false,
    accessKey: decodeURIComponent(url.username),
    secretKey: decodeURIComponent(url.password),
  });
  const bucket = 'smoke-attachments';
  if (!(await client.bucketExists(bucket))) await client.makeBucket(bucket);
  const body = Buffer.from('Subject: hello\r\n\r\nattachment bytes\r\n');
  await client.putObject(bucket, 'mail/1/attachment.eml', body, body.length, {
    'Content-Type': 'message/rfc822',
  });
  const stream = await client.getObject(bucket, 'mail/1/attachment.eml');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  t.same(Buffer.concat(chunks), body, 'the same bytes come back');
  const stat = await client.statObject(bucket, 'mail/1/attachment.eml');
  t.equal(stat.size, body.length);
  t.equal(stat.metaData['content-type'], 'message/rfc822');
});
