import { readMailConfig } from '../../src/config.ts';
import { startMail } from '../../src/mail.ts';
import type { MailPorts } from '../../src/ports.ts';
import type { Corpus } from '../corpus.ts';
import { sleep } from './latency.ts';

/** How often messages are filed, and how often the poller searches for the pending ones. */
export const LAG_TICK_MS = 50;
export const POLL_MS = 25;

/**
 * Step 2: with the store full and the indexer running as `startMail` runs it, `rate` messages a
 * second filed as the worker files them (`fileCopies`, which puts each on the index backlog that
 * the indexer adds every MAIL_INDEX_EVERY_MS); each one's lag is the time from its filing commit
 * to the first search by its unique token that finds it.
 */
export async function indexLag(
  ports: MailPorts,
  corpus: Corpus,
  { rate: LAG_RATE, seconds: LAG_SECONDS }: { readonly rate: number; readonly seconds: number },
): Promise<{ lags: number[]; delivered: number; found: number }> {
  const unreachable = (): Promise<never> => Promise.reject(new Error('no DNS in the benchmark'));
  // A failed index write is retried by the indexer; the benchmark still fails for it.
  const errors: unknown[] = [];
  const mail = await startMail({
    config: readMailConfig({ SMTP_PORT: '0' }),
    ports,
    smtpIn: false,
    parseThread: false,
    pollMs: 50,
    resolver: { resolveMx: unreachable, resolve4: unreachable, resolve6: unreachable },
    verifySender: () => Promise.resolve({ spf: 'none', dkim: 'none', dmarc: 'none' }),
    onError: (error) => errors.push(error),
  });
  const pending = new Map<string, { user: string; committed: number }>();
  const lags: number[] = [];
  const total = Math.round(LAG_RATE * LAG_SECONDS);
  const perTick = (LAG_RATE * LAG_TICK_MS) / 1000;
  let delivered = 0;
  let polling = true;
  const poller = (async () => {
    while (polling || pending.size > 0) {
      for (const [token, { user, committed }] of [...pending]) {
        const hits = await ports.search.search(
          user,
          { text: [token], from: [], to: [], subject: [] },
          { limit: 1 },
        );
        if (hits.length > 0) {
          lags.push(performance.now() - committed);
          pending.delete(token);
        }
      }
      await sleep(POLL_MS);
    }
  })();
  const started = performance.now();
  let owed = 0;
  for (let tick = 0; delivered < total; tick++) {
    owed += perTick;
    const copies = [];
    for (; owed >= 1 && delivered < total; owed--, delivered++) {
      const token = `lagtoken${String(delivered).padStart(7, '0')}`;
      const message = corpus.message(corpus.user(), Date.now(), token);
      copies.push({ token, message });
    }
    if (copies.length > 0) {
      await ports.metadata.fileCopies(
        copies.map(({ message }) => ({
          message,
          headers: { messageId: message.message_id, references: [] },
        })),
      );
      const committed = performance.now();
      for (const { token, message } of copies) pending.set(token, { user: message.user_id, committed });
    }
    const next = started + (tick + 1) * LAG_TICK_MS;
    await sleep(Math.max(0, next - performance.now()));
  }
  // Whatever is not found 30 s after the last delivery counts as lost.
  const deadline = performance.now() + 30_000;
  while (pending.size > 0 && performance.now() < deadline) await sleep(POLL_MS);
  const found = lags.length;
  pending.clear();
  polling = false;
  await poller;
  await mail.close();
  if (errors.length > 0) throw new Error(`index lag: ${errors.length} errors`, { cause: errors[0] });
  return { lags, delivered, found };
}
