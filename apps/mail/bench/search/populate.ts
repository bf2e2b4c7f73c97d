import type { MailPorts, StoredMessage } from '../../src/ports.ts';
import { type Corpus, userId } from '../corpus.ts';
import { progress } from './latency.ts';

/** One stored message per user kept to read back (REST get) and its inbox to list. */
export interface Sample {
  readonly user: string;
  readonly emailId: string;
}

/** How many messages over how many users; batches of `batch`, one group commit each. */
export interface Population {
  readonly messages: number;
  readonly users: number;
  readonly batch: number;
}

/** Step 1: the corpus written through the MetadataStore and SearchIndex ports, not through SMTP. */
export async function populate(
  ports: MailPorts,
  corpus: Corpus,
  { messages: MESSAGES, users: USERS, batch: BATCH }: Population,
): Promise<{ ms: number; samples: Sample[] }> {
  const started = performance.now();
  for (let u = 0; u < USERS; u++) await ports.metadata.ensureUser(userId(u));
  const samples: Sample[] = [];
  const step = Math.max(BATCH, Math.round(MESSAGES / 20 / BATCH) * BATCH);
  for (let done = 0; done < MESSAGES;) {
    const batch: StoredMessage[] = [];
    for (let i = 0; i < BATCH && done + i < MESSAGES; i++) {
      // Every user gets messages; past the first round, users at random.
      const user = done + i < USERS ? userId(done + i) : corpus.user();
      batch.push(corpus.message(user, corpus.receivedAt()));
    }
    // One event-loop turn each: the group commits put each batch in one transaction.
    await Promise.all(batch.map((m) => ports.metadata.insertMessage(m)));
    await Promise.all(
      batch.map((m) => ports.search.upsert({ ...m, has_attachment: m.attachments.length > 0 })),
    );
    for (const m of batch)
      if (samples.length < 5000 && corpus.pick(Math.ceil(MESSAGES / 5000)) === 0)
        samples.push({ user: m.user_id, emailId: m.email_id });
    done += batch.length;
    if (done % step === 0 || done === MESSAGES) progress('populate', done, MESSAGES, started);
  }
  if (samples.length === 0) throw new Error('no sample messages');
  return { ms: performance.now() - started, samples };
}
