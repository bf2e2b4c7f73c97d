import type { BenchServer } from '@tessera/testkit';
import { parseSearchQuery } from '../../src/core/search-query.ts';
import type { MailPorts } from '../../src/ports.ts';
import { CORPUS_END, type Corpus, DAY_MS } from '../corpus.ts';
import { summary, type Summary } from './latency.ts';

/** One kind of search a user makes, and how to make one from the corpus. */
export interface QueryKind {
  readonly kind: string;
  make(corpus: Corpus): string;
}

const date = (at: number): string => new Date(at).toISOString().slice(0, 10);
export const QUERY_KINDS: readonly QueryKind[] = [
  { kind: 'word', make: (c) => c.word() },
  { kind: 'two words', make: (c) => `${c.word()} ${c.word()}` },
  { kind: 'from:', make: (c) => `from:${c.sender().email}` },
  { kind: 'subject:', make: (c) => `subject:${c.word()}` },
  { kind: 'is:unread', make: () => 'is:unread' },
  { kind: 'has:attachment', make: () => 'has:attachment' },
  {
    kind: 'before:/after:',
    make: (c) => {
      const from = CORPUS_END - (1 + c.pick(330)) * DAY_MS;
      return `after:${date(from)} before:${date(from + 30 * DAY_MS)}`;
    },
  },
  { kind: 'word is:unread', make: (c) => `${c.word()} is:unread` },
];

/** Step 3a: `count` queries of every kind, in turn, for random users through the SearchIndex port. */
export async function portQueries(
  ports: MailPorts,
  corpus: Corpus,
  count: number,
): Promise<Record<string, Summary>> {
  const times = new Map<string, number[]>();
  for (let i = 0; i < count; i++) {
    const kind = QUERY_KINDS[i % QUERY_KINDS.length] ?? QUERY_KINDS[0];
    if (kind === undefined) break;
    const query = parseSearchQuery(kind.make(corpus));
    const started = performance.now();
    await ports.search.search(corpus.user(), query, { limit: 51 });
    const list = times.get(kind.kind) ?? [];
    list.push(performance.now() - started);
    times.set(kind.kind, list);
  }
  const all = [...times.values()].flat();
  return { all: summary(all), ...Object.fromEntries([...times].map(([k, v]) => [k, summary(v)])) };
}

/** Step 3b: the same through REST GET /v1/search, a token of a random sampled user each. */
export async function restQueries(
  server: BenchServer,
  corpus: Corpus,
  tokens: readonly string[],
  count: number,
): Promise<Record<string, Summary>> {
  const times = new Map<string, number[]>();
  for (let i = 0; i < count; i++) {
    const kind = QUERY_KINDS[i % QUERY_KINDS.length];
    if (kind === undefined) break;
    const q = kind.make(corpus);
    const token = tokens[corpus.pick(tokens.length)] ?? '';
    const started = performance.now();
    const response = await fetch(`${server.url}/v1/search?q=${encodeURIComponent(q)}&limit=50`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET /v1/search?q=${q}: ${response.status}`);
    const list = times.get(kind.kind) ?? [];
    list.push(performance.now() - started);
    times.set(kind.kind, list);
  }
  const all = [...times.values()].flat();
  return { all: summary(all), ...Object.fromEntries([...times].map(([k, v]) => [k, summary(v)])) };
}
