/**
 * Inbound messages/s end to end in one process: nodemailer (pooled connections) → smtp-in →
 * queue → worker → metadata, blobs and push → indexer → search, beside the same load into an
 * smtp-server that stores nothing (the baseline, same run). Not the figure yet (that
 * one uses Postfix's smtp-source as the load and smtp-sink as the baseline); a quick reading of
 * the embedded path. Usage: node --conditions=development bench/inbound.ts [count]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { openEmbeddedMail } from '../src/adapters/embedded/open-embedded.ts';
import { readMailConfig } from '../src/config.ts';
import { startMail } from '../src/mail.ts';
import { startSmtpSink } from '../test/helpers/smtp-sink.ts';

const count = Number(process.argv[2] ?? 2000);
const connections = 8;
const body = 'lorem ipsum dolor sit amet '.repeat(150).slice(0, 4000); // a 4 KB message

/** Sends `count` messages over `connections` pooled connections; resolves to the elapsed ms. */
async function load(port: number): Promise<number> {
  const client = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
    ignoreTLS: true,
  });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: connections * 4 }, async () => {
      while (next < count) {
        const i = next++;
        await client.sendMail({
          from: 'bob@remote.test',
          to: 'alice@tessera.local',
          subject: `m${i}`,
          text: body,
        });
      }
    }),
  );
  client.close();
  return performance.now() - started;
}

const sink = await startSmtpSink();
const sinkMs = await load(sink.port);
await sink.close();

const dataDir = mkdtempSync(join(tmpdir(), 'tessera-mail-bench-'));
const ports = openEmbeddedMail({ dataDir, synchronous: 'normal' });
const mail = await startMail({
  config: readMailConfig({ SMTP_PORT: '0' }),
  ports,
  verifySender: () => Promise.resolve({ spf: 'none', dkim: 'none', dmarc: 'none' }),
  pollMs: 50,
});
await mail.service.ensureMailbox('alice');
const started = performance.now();
const acceptMs = await load(mail.smtpIn?.port ?? 0);

for (let i = 0; i < 100_000; i++) {
  const stats = await ports.queue.stats('mail.changes');
  const inbound = await ports.queue.stats('mail.inbound');
  if (stats.size === 0 && inbound.size === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 5));
}
const done = performance.now();
const stored = (await mail.service.search('alice', 'lorem', { limit: 1 })).messages.length;
const results = {
  machine: `${cpus()[0]?.model ?? 'unknown CPU'} · ${cpus().length} cores · Node ${process.version} · load ${loadavg()[0]?.toFixed(1)}`,
  messages: count,
  message_bytes: body.length,
  connections,
  sink_per_s: Math.round(count / (sinkMs / 1000)),
  accepted_per_s: Math.round(count / (acceptMs / 1000)),
  stored_and_indexed_per_s: Math.round(count / ((done - started) / 1000)),
  ratio_to_sink: Number((sinkMs / (done - started)).toFixed(2)),
  searchable: stored === 1,
};
console.log(JSON.stringify(results, null, 2));
const resultsDir = new URL('../../../bench-results/', import.meta.url);
mkdirSync(resultsDir, { recursive: true });
writeFileSync(new URL('mail-inbound.json', resultsDir), `${JSON.stringify(results, null, 2)}\n`);
await mail.close();
await ports.close();
rmSync(dataDir, { recursive: true, force: true });
