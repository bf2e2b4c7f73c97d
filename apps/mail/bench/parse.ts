/**
 * CPU per parsed message, in process: postal-mime on the message as received ("before") and on
 * the message as `parseMessage` hands it over (`asQuotedPrintable`, "after"), interleaved round
 * by round so both see the same machine. Three messages: smtp-source's 4 KB (the inbound
 * benchmark's load: 52 lines of 78 characters, no MIME headers), a 4 KB plain-text corpus body
 * (7bit, utf-8), and 230 short lines. A composed corpus message (quoted-printable, which
 * postal-mime already decodes in one part and `asQuotedPrintable` leaves alone) is the control.
 * Usage: node --conditions=development bench/parse.ts [rounds] [parses per round]
 */
import { loadavg } from 'node:os';
import PostalMime from 'postal-mime';
import { Corpus } from './corpus.ts';
import { composeMessage } from '../src/mime/compose.ts';
import { asQuotedPrintable } from '../src/mime/qp-body.ts';

const rounds = Number(process.argv[2] ?? 7);
const parses = Number(process.argv[3] ?? 1000);

const HEAD = 'From: <bob@remote.test>\r\nTo: <alice@tessera.local>\r\nSubject: bench\r\n';
const corpus = new Corpus({ seed: 13, users: 1 });
let body = corpus.body();
while (body.length < 4096) body += `\n\n${corpus.body()}`;
// The corpus body in lines of at most ~76 characters, as a mail client wraps plain text.
const wrapped = body
  .slice(0, 4096)
  .replace(/(.{1,76})(?: |$)/g, '$1\n')
  .replace(/\n+/g, '\r\n');
const m = corpus.message('u00000', corpus.receivedAt());

const messages: Record<string, Buffer> = {
  'smtp-source 4 KB': Buffer.from(
    `${HEAD}\r\n${Array.from({ length: 52 }, (_, i) => `${i + 1}`.padEnd(78, 'X')).join('\r\n')}\r\n`,
  ),
  'corpus 4 KB, 7bit': Buffer.from(`${HEAD}Content-Type: text/plain; charset=utf-8\r\n\r\n${wrapped}`),
  '230 short lines': Buffer.from(
    `${HEAD}\r\n${Array.from({ length: 230 }, (_, i) => `l${i}`).join('\r\n')}\r\n`,
  ),
  'composed, QP (control)': await composeMessage({
    from: m.from,
    to: m.to,
    cc: [],
    subject: m.subject,
    text: body.slice(0, 4096),
    messageId: m.message_id,
    references: [],
    date: new Date(m.received_at),
    attachments: [],
  }),
};

/** µs of CPU (user + system) per parse of `raw`, the restatement included when `after`. */
async function cpuPerParse(raw: Buffer, after: boolean): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < parses; i++) await PostalMime.parse(after ? (asQuotedPrintable(raw) ?? raw) : raw);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / parses;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const results: Record<string, { before: number[]; after: number[] }> = {};
const load = [loadavg()[0] ?? 0];
// Warm-up: both paths compiled before the first measured round.
for (const raw of Object.values(messages)) {
  await cpuPerParse(raw, false);
  await cpuPerParse(raw, true);
}
for (let r = 0; r < rounds; r++) {
  for (const [name, raw] of Object.entries(messages)) {
    const entry = (results[name] ??= { before: [], after: [] });
    // Alternate which goes first, so neither always follows the other's garbage.
    const order = r % 2 === 0 ? [false, true] : [true, false];
    for (const after of order) (after ? entry.after : entry.before).push(await cpuPerParse(raw, after));
  }
  load.push(loadavg()[0] ?? 0);
}
console.log(
  `rounds ${rounds} × ${parses} parses, load average (1 min) ${load.map((l) => l.toFixed(1)).join(', ')}`,
);
for (const [name, { before, after }] of Object.entries(results)) {
  const b = median(before);
  const a = median(after);
  console.log(
    `${name.padEnd(24)} ${String(messages[name]?.length).padStart(5)} B  before ${b.toFixed(1).padStart(7)} µs  ` +
      `after ${a.toFixed(1).padStart(6)} µs  after/before ${(a / b).toFixed(3)}  ` +
      `(before ${before.map((x) => x.toFixed(0)).join(', ')}; after ${after.map((x) => x.toFixed(0)).join(', ')})`,
  );
}
