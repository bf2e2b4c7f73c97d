/**
 * Conversation threads from Message-Id, In-Reply-To and References (RFC 5322 §3.6.4), never
 * from the subject: a reply whose subject was changed stays in its thread. Every id a message
 * names (its own and its parents') is recorded for the thread, so a reply that arrives before
 * its parent still ends up in the parent's thread.
 */

export interface ThreadHeaders {
  readonly messageId?: string;
  readonly inReplyTo?: string;
  readonly references: readonly string[];
}

/** `<id@host>` → `id@host`: headers carry angle brackets, the API and the store do not. */
export function normalizeMessageId(raw: string): string {
  return raw.trim().replace(/^<|>$/g, '');
}

/** The ids of a References (or In-Reply-To) header, in order. */
export function parseMessageIds(header: string | undefined): string[] {
  if (header === undefined) return [];
  const bracketed = [...header.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1] ?? '');
  if (bracketed.length > 0) return bracketed.filter((id) => id.length > 0);
  return header
    .split(/\s+/)
    .filter((id) => id.length > 0)
    .map(normalizeMessageId);
}

/** The ids to look up, nearest relation first: the message itself, its parent, then older ancestors. */
export function threadKeys(headers: ThreadHeaders): string[] {
  const keys: string[] = [];
  const add = (id: string | undefined): void => {
    if (id === undefined) return;
    const normalized = normalizeMessageId(id);
    if (normalized.length > 0 && !keys.includes(normalized)) keys.push(normalized);
  };
  add(headers.messageId);
  add(headers.inReplyTo);
  for (const id of [...headers.references].reverse()) add(id);
  return keys;
}

/**
 * The thread a message joins: the thread of the nearest key already known, else a new thread
 * (`newThreadId`, the message's own email_id). `known` maps message ids to thread ids.
 */
export function resolveThread(
  headers: ThreadHeaders,
  known: ReadonlyMap<string, string>,
  newThreadId: string,
): string {
  for (const key of threadKeys(headers)) {
    const thread = known.get(key);
    if (thread !== undefined) return thread;
  }
  return newThreadId;
}
