/**
 * Inbound messages/s end to end (issue 13's figure): Postfix's smtp-source as the load (a process
 * of its own, `sessions` parallel SMTP sessions, 4 KB messages) → smtp-in → queue → worker →
 * metadata, blobs, push and the index backlog → indexer → search; beside the same load into Postfix's smtp-sink,
 * which stores nothing (the baseline, same run). The service runs in this process over embedded
 * stores in a temporary DATA_DIR (DATA_FSYNC off: SQLite synchronous=normal, as `make run`).
 * The worker and indexer run on a thread of their own, as `tessera serve` runs them
 * (BENCH_CONSUMER_THREAD=0: on the main thread, beside SMTP, for comparison; BENCH_PARSE_THREAD=0:
 * parsing on the worker's thread instead of a parse thread of its own).
 * Usage: node --conditions=development bench/inbound.ts [count] [sessions]
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '@tessera/testkit';
import { openEmbeddedMail } from '../src/adapters/embedded/open-embedded.ts';
import { readMailConfig } from '../src/config.ts';
import { startMail } from '../src/mail.ts';

const count = Number(process.argv[2] ?? 5000);
const sessions = Number(process.argv[3] ?? 16);
const MESSAGE_BYTES = 4096;
const run = promisify(execFile);
const consumerThread = process.env.BENCH_CONSUMER_THREAD !== '0';
const parseThread = process.env.BENCH_PARSE_THREAD !== '0';

await run('bash', [fileURLToPath(new URL('../../../tools/install.sh', import.meta.url)), 'mail']);

/** smtp-source's run time for the whole load against `port`, in ms. */
async function load(port: number): Promise<number> {
  const started = performance.now();
  await run(
    '/usr/sbin/smtp-source',
    [
      '-d', // several messages per session, as a busy peer MTA does
      ...['-s', String(sessions), '-m', String(count), '-l', String(MESSAGE_BYTES)],
      ...['-f', 'bob@remote.test', '-t', 'alice@tessera.local', '-S', 'bench'],
      `127.0.0.1:${port}`,
    ],
    { timeout: 600_000 },
  );
  return performance.now() - started;
}

async function listening(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => resolve(socket.destroy() === socket));
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

/**
 * CPU ms of each thread of this process by its name (Linux: /proc/self/task; V8's helper threads
 * collect garbage, libuv's do file I/O), so a message's cost can be told apart by thread.
 */
function threadCpu(): Map<string, number> {
  const byName = new Map<string, number>();
  const tick = 10; // ms: USER_HZ is 100 on Linux
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return byName; // not Linux
  }
  for (const task of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close).replace(/[0-9]+$/, '');
    const fields = stat.slice(close + 2).split(' ');
    const ms = (Number(fields[11]) + Number(fields[12])) * tick;
    byName.set(name, (byName.get(name) ?? 0) + ms);
  }
  return byName;
}

// The baseline: the same load into smtp-sink.
const sinkPort = await freePort();
const sink = spawn('/usr/sbin/smtp-sink', ['-u', 'nobody', `127.0.0.1:${sinkPort}`, '256'], {
  stdio: 'ignore',
});
await listening(sinkPort);
const sinkMs = await load(sinkPort);
sink.kill('SIGTERM');

const dataDir = mkdtempSync(join(tmpdir(), 'tessera-mail-bench-'));
const ports = openEmbeddedMail({ dataDir, synchronous: 'normal', walCheckpoints: 'own' });
const mail = await startMail({
  config: readMailConfig({
    SMTP_PORT: '0',
    MAIL_MAX_MESSAGE_BYTES: String(1024 * 1024),
    MAIL_INDEX_EVERY_MS: process.env.MAIL_INDEX_EVERY_MS,
  }),
  ports,
  // The senders' domains have no DNS here: SPF/DKIM/DMARC lookups would only time out.
  verifySender: () => Promise.resolve({ spf: 'none', dkim: 'none', dmarc: 'none' }),
  pollMs: 50,
  parseThread,
  ...(consumerThread
    ? { consumerThread: { dataDir, synchronous: 'normal', walRestarts: ports.walRestarts } }
    : {}),
});
await mail.service.ensureMailbox('alice');
const load0 = loadavg()[0] ?? 0;
// CPU of this process (every thread), beside the wall clock: what a message costs whatever the
// other processes on the machine take.
const cpu0 = process.cpuUsage();
const threads0 = threadCpu();
const started = performance.now();
const acceptMs = await load(mail.smtpIn?.port ?? 0);
for (let i = 0; i < 200_000; i++) {
  const changes = await ports.queue.stats('mail.changes');
  const inbound = await ports.queue.stats('mail.inbound');
  const unindexed = await ports.metadata.unindexed(1);
  if (changes.size === 0 && inbound.size === 0 && unindexed.length === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 5));
}
const done = performance.now();
const cpu = process.cpuUsage(cpu0);
const threads = threadCpu();
const perThread = Object.fromEntries(
  [...threads]
    .map(([name, ms]) => [name, Number(((ms - (threads0.get(name) ?? 0)) / count).toFixed(3))] as const)
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1]),
);
const inbox = await mail.service.listMessages('alice', 'inbox', { limit: 1 });
const searchable = (await mail.service.search('alice', 'subject:bench', { limit: 1 })).messages.length === 1;
const results = {
  machine: `${cpus()[0]?.model ?? 'unknown CPU'} · ${cpus().length} cores · Node ${process.version}`,
  load_average_1m: { before: Number(load0.toFixed(1)), after: Number((loadavg()[0] ?? 0).toFixed(1)) },
  consumer_thread: consumerThread,
  parse_thread: parseThread,
  load: `smtp-source -d -s ${sessions} -m ${count} -l ${MESSAGE_BYTES}`,
  messages: count,
  sink_per_s: Math.round(count / (sinkMs / 1000)),
  accepted_per_s: Math.round(count / (acceptMs / 1000)),
  stored_and_indexed_per_s: Math.round(count / ((done - started) / 1000)),
  cpu_ms_per_message: Number(((cpu.user + cpu.system) / 1000 / count).toFixed(3)),
  cpu_ms_per_message_by_thread: perThread,
  ratio_to_sink: Number((sinkMs / (done - started)).toFixed(3)),
  // Each file's checkpoint rounds (largest WAL seen, rounds, copy-back failures), when on a thread.
  wal_checkpoints: ports.walCheckpointers?.stats(),
  stored: inbox.messages.length === 1,
  searchable,
};
console.log(JSON.stringify(results, null, 2));
const resultsDir = new URL('../../../bench-results/', import.meta.url);
mkdirSync(resultsDir, { recursive: true });
writeFileSync(new URL('mail-inbound.json', resultsDir), `${JSON.stringify(results, null, 2)}\n`);
await mail.close();
await ports.close();
rmSync(dataDir, { recursive: true, force: true });
