import t from 'tap';
import { pollUntil } from '@tessera/testkit';
import { readFileSync, readdirSync } from 'node:fs';
import { composeMessage } from '../src/mime/compose.ts';
import { parseMessage } from '../src/mime/parse.ts';
import { ParserUnavailable, startParseThread } from '../src/mime/parse-pool.ts';

async function sample(): Promise<Buffer> {
  return composeMessage({
    from: { name: 'Alice', email: 'alice@tessera.local' },
    to: [{ name: '', email: 'bob@tessera.local' }],
    cc: [],
    subject: 'Plan',
    text: 'line one\nline two\n',
    messageId: 'plan@tessera.local',
    references: ['older@tessera.local'],
    inReplyTo: 'older@tessera.local',
    date: new Date(Date.UTC(2026, 10, 27)),
    // Small attachments are slices of Node's Buffer pool, which cannot be posted as they are.
    attachments: [{ filename: 'a.txt', contentType: 'text/plain', content: Buffer.from('tiny') }],
    parts: [{ contentType: 'message/delivery-status', content: 'Reporting-MTA: dns; x\n' }],
  });
}

t.test('the parse thread gives what parseMessage gives, attachments as Buffers', async (t) => {
  const parser = startParseThread();
  t.teardown(() => parser.close());
  const raw = await sample();
  const threaded = await parser.parse(raw);
  t.same(threaded, await parseMessage(raw));
  t.ok(threaded.attachments.every((a) => Buffer.isBuffer(a.content)));
  t.equal(threaded.attachments[0]?.content.toString(), 'tiny');
  // A view into a larger buffer is parsed from its own bytes only.
  const framed = Buffer.concat([Buffer.from('garbage'), raw, Buffer.from('garbage')]);
  const view = framed.subarray(7, 7 + raw.length);
  t.same(await parser.parse(view), threaded);
  const many = await Promise.all(Array.from({ length: 20 }, () => parser.parse(raw)));
  t.equal(many.filter((m) => m.subject === 'Plan').length, 20, 'concurrent parses each get their own answer');
});

t.test('after close, a parse is refused as unavailable, not as an unreadable message', async (t) => {
  const parser = startParseThread();
  t.equal((await parser.parse(await sample())).subject, 'Plan');
  await parser.close();
  const refused = await parser.parse(await sample()).then(
    () => undefined,
    (error: unknown) => error,
  );
  t.ok(refused instanceof ParserUnavailable);
});

t.test('parses under way when the parser closes are refused as unavailable, not left waiting', async (t) => {
  const parser = startParseThread();
  const raw = await sample();
  const underWay = Array.from({ length: 5 }, () =>
    parser.parse(raw).then(
      () => 'parsed',
      (error: unknown) => (error instanceof ParserUnavailable ? 'unavailable' : 'other'),
    ),
  );
  await parser.close();
  const outcomes = await Promise.all(underWay);
  t.ok(
    outcomes.every((o) => o === 'parsed' || o === 'unavailable'),
    `each settled: ${outcomes.join(', ')}`,
  );
});

t.test('parses asked in one turn cross together and each gets its own answer', async (t) => {
  const parser = startParseThread();
  t.teardown(() => parser.close());
  const raws = Array.from({ length: 12 }, (_, i) =>
    Buffer.from(`From: a@x.test\r\nSubject: s${i}\r\n\r\nbody ${i}\r\n`),
  );
  const parsed = await Promise.all(raws.map((raw) => parser.parse(raw)));
  t.same(
    parsed.map((p) => p.subject),
    raws.map((_, i) => `s${i}`),
    'in the order asked, none swapped',
  );
  t.same(
    parsed.map((p) => p.text.trim()),
    raws.map((_, i) => `body ${i}`),
  );
});

/** The threads of this process named `name` (Linux: /proc/self/task; elsewhere none are seen). */
function threadsNamed(name: string): number {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  return tasks.filter((task) => {
    try {
      return readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim() === name;
    } catch {
      return false; // the thread ended meanwhile
    }
  }).length;
}

// Threads are counted in /proc (Linux, where Tessera runs and is tested).
t.test('warm starts the thread before the first parse; after close it starts none', async (t) => {
  const before = threadsNamed('mail-parse');
  const parser = startParseThread();
  t.equal(threadsNamed('mail-parse'), before, 'no thread until asked');
  parser.warm();
  parser.warm(); // a second call starts no second thread
  await pollUntil('the parse thread to start', () => Promise.resolve(threadsNamed('mail-parse') !== before), {
    ms: 10_000,
    intervalMs: 10,
  });
  t.equal(threadsNamed('mail-parse'), before + 1, 'one thread, before any parse');
  t.equal((await parser.parse(await sample())).subject, 'Plan', 'and it parses');
  await parser.close();
  parser.warm();
  t.equal(threadsNamed('mail-parse'), before, 'closed: warm starts nothing');
});
