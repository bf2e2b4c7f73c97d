/**
 * A seeded mail corpus for the search benchmark: words, names and addresses from a fixed
 * generator (the same messages on every run, so runs compare), 1–4 KB bodies, one message in ten
 * with an attachment, half of them read, received over the year before a fixed day.
 */
import type { Address } from '../src/core/address.ts';
import { seededRandom } from '@tessera/testkit';
import { newEmailId } from '../src/core/email-id.ts';
import type { StoredMessage } from '../src/ports.ts';

const ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'h',
  'k',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'br',
  'st',
  'tr',
  'pl',
  'gr',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
const CODAS = ['', '', 'n', 'r', 's', 't', 'l', 'nd', 'st', 'm'];
const FIRST = [
  'Alice',
  'Bob',
  'Carol',
  'David',
  'Erin',
  'Frank',
  'Grace',
  'Heidi',
  'Ivan',
  'Judy',
  'Mallory',
  'Niaj',
  'Olivia',
  'Peggy',
  'Rupert',
  'Sybil',
  'Trent',
  'Victor',
  'Walter',
  'Yara',
];
const LAST = [
  'Smith',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Lopez',
  'Wilson',
  'Moore',
  'Taylor',
  'Thomas',
  'Martin',
  'Clark',
  'Lewis',
  'Walker',
  'Hall',
  'Young',
  'King',
  'Wright',
  'Scott',
  'Green',
];
const DOMAINS = ['example.com', 'example.org', 'mail.test', 'corp.test', 'shop.test', 'news.test'];

/** The corpus's vocabulary (2,000 words), most frequent first. */
export const WORDS: readonly string[] = (() => {
  const random = seededRandom(7);
  const words = new Set<string>();
  while (words.size < 2000) {
    const syllables = 1 + random(3);
    let word = '';
    for (let s = 0; s < syllables; s++)
      word += `${ONSETS[random(ONSETS.length)]}${VOWELS[random(VOWELS.length)]}${CODAS[random(CODAS.length)]}`;
    if (word.length >= 3) words.add(word);
  }
  return [...words];
})();

/** 400 correspondents: a name and an address each. */
export const SENDERS: readonly Address[] = Array.from({ length: 400 }, (_, i) => {
  const first = FIRST[i % FIRST.length] ?? 'Alice';
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length] ?? 'Smith';
  const domain = DOMAINS[i % DOMAINS.length] ?? 'example.com';
  return { name: `${first} ${last}`, email: `${first}.${last}${i}@${domain}`.toLowerCase() };
});

export const DAY_MS = 86_400_000;
/** Messages are received during the year before this day. */
export const CORPUS_END = Date.UTC(2026, 10, 1);

export function userId(index: number): string {
  return `u${String(index).padStart(5, '0')}`;
}

export class Corpus {
  readonly #random: (n: number) => number;
  readonly #users: number;

  constructor(options: { seed: number; users: number }) {
    this.#random = seededRandom(options.seed);
    this.#users = options.users;
  }

  /** A word, skewed towards the frequent ones (a rough Zipf). */
  word(): string {
    const r = this.#random;
    return WORDS[r(1 + r(WORDS.length))] ?? 'mail';
  }

  sender(): Address {
    return SENDERS[this.#random(SENDERS.length)] ?? { name: 'Alice Smith', email: 'alice@example.com' };
  }

  user(): string {
    return userId(this.#random(this.#users));
  }

  pick(n: number): number {
    return this.#random(n);
  }

  #sentence(words: number): string {
    const parts: string[] = [];
    for (let i = 0; i < words; i++) parts.push(this.word());
    const text = parts.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  }

  /** A body of 1–4 KB in paragraphs, with `extra` (a unique token) inside when given. */
  body(extra?: string): string {
    const target = 1024 + this.#random(3072);
    const paragraphs: string[] = [];
    let size = 0;
    while (size < target) {
      const sentences: string[] = [];
      for (let s = 0, n = 2 + this.#random(5); s < n; s++)
        sentences.push(this.#sentence(6 + this.#random(14)));
      const paragraph = sentences.join(' ');
      paragraphs.push(paragraph);
      size += paragraph.length + 2;
    }
    if (extra !== undefined) paragraphs.splice(this.#random(paragraphs.length), 0, `Reference ${extra}.`);
    return `Hi,\n\n${paragraphs.join('\n\n')}\n\n-- \nSent from the benchmark`;
  }

  /** A message for `user` received at `receivedAt` (ms), its email_id made from that instant. */
  message(user: string, receivedAt: number, extra?: string): StoredMessage {
    const emailId = newEmailId(receivedAt);
    const attachment = this.#random(10) === 0;
    return {
      user_id: user,
      email_id: emailId,
      folder_id: 'inbox',
      thread_id: emailId,
      message_id: `${emailId}@bench.test`,
      references: [],
      from: this.sender(),
      to: [{ name: user, email: `${user}@tessera.local` }],
      cc: this.#random(4) === 0 ? [this.sender()] : [],
      bcc: [],
      subject: this.#sentence(3 + this.#random(6)).slice(0, -1),
      body: this.body(extra),
      is_read: this.#random(2) === 0,
      received_at: receivedAt,
      attachments: attachment
        ? [
            {
              filename: `${this.word()}.pdf`,
              content_type: 'application/pdf',
              size: 10_000 + this.#random(200_000),
              blob_key: `bench/${emailId}/0`,
            },
          ]
        : [],
    };
  }

  /** An instant in the corpus's year. */
  receivedAt(): number {
    return CORPUS_END - 1 - this.#random(365 * DAY_MS);
  }
}
