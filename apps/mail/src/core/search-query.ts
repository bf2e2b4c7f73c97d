/**
 * The search language of GET /v1/search, parsed into a plain query that every search index
 * adapter (FTS5, Elasticsearch) translates: free words and "quoted phrases" match subject,
 * body and addresses; `from:`, `to:`, `subject:` narrow a word to one field; `is:unread`,
 * `is:read`, `has:attachment`, `before:` and `after:` (YYYY-MM-DD, UTC) filter.
 * An unknown `word:` is searched as text, as mail clients do.
 */
import { mailErrors } from '../errors.ts';

export interface SearchQuery {
  readonly text: readonly string[];
  readonly from: readonly string[];
  readonly to: readonly string[];
  readonly subject: readonly string[];
  readonly unread?: boolean;
  readonly hasAttachment?: boolean;
  /** Received strictly before this instant (ms since the epoch). */
  readonly before?: number;
  /** Received at or after this instant (ms since the epoch). */
  readonly after?: number;
}

export const MAX_QUERY_TERMS = 32;

// A term: an optional `op:` then a quoted phrase or a bare word.
const TERM = /([a-z]+):(?:"([^"]*)"?|(\S*))|"([^"]*)"?|(\S+)/gi;

function parseDate(value: string, term: string): number {
  const m = /^(\d{4})[-/](\d{2})[-/](\d{2})$/.exec(value);
  const ms = m === null ? NaN : Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (m === null || Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[3])) {
    throw mailErrors.MAIL_BAD_QUERY(`${term} needs a date as YYYY-MM-DD`, { term });
  }
  return ms;
}

export function parseSearchQuery(q: string): SearchQuery {
  const text: string[] = [];
  const from: string[] = [];
  const to: string[] = [];
  const subject: string[] = [];
  let unread: boolean | undefined;
  let hasAttachment: boolean | undefined;
  let before: number | undefined;
  let after: number | undefined;
  let terms = 0;
  for (const m of q.matchAll(TERM)) {
    if (++terms > MAX_QUERY_TERMS)
      throw mailErrors.MAIL_BAD_QUERY(`a query has at most ${MAX_QUERY_TERMS} terms`, { term: m[0] });
    const op = m[1]?.toLowerCase();
    const value = (m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').trim();
    const term = m[0];
    if (op === undefined) {
      if (value.length > 0) text.push(value);
      continue;
    }
    switch (op) {
      case 'from':
      case 'to':
      case 'subject':
        if (value.length === 0) throw mailErrors.MAIL_BAD_QUERY(`${op}: needs a value`, { term });
        ({ from, to, subject })[op].push(value);
        break;
      case 'is':
        if (value.toLowerCase() === 'unread') unread = true;
        else if (value.toLowerCase() === 'read') unread = false;
        else throw mailErrors.MAIL_BAD_QUERY('is: takes unread or read', { term });
        break;
      case 'has':
        if (value.toLowerCase() !== 'attachment')
          throw mailErrors.MAIL_BAD_QUERY('has: takes attachment', { term });
        hasAttachment = true;
        break;
      case 'before':
        before = parseDate(value, term);
        break;
      case 'after':
        after = parseDate(value, term);
        break;
      default:
        text.push(term);
    }
  }
  return {
    text,
    from,
    to,
    subject,
    ...(unread === undefined ? {} : { unread }),
    ...(hasAttachment === undefined ? {} : { hasAttachment }),
    ...(before === undefined ? {} : { before }),
    ...(after === undefined ? {} : { after }),
  };
}
