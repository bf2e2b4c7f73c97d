/**
 * The bytes of a fast answer's head as node:http writes them for the same answer (status line,
 * the route's headers, content-type and -length, Date, Connection, Keep-Alive): a test compares
 * them with node:http's own (fast-front.test.ts), and AnswerText's head with answerHead's.
 */
import { STATUS_CODES, validateHeaderName, validateHeaderValue } from 'node:http';
import type { FrontAnswer, PlainAnswer } from './fast-route-types.ts';
import { JSON_TYPE, OWN_HEADERS } from './fast-outcomes.ts';

const ASCII_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * The text of the front's answers for one server: node:http's head for each (see answerHead),
 * and the answer after it. The head of a plain 200 with a JSON body and no headers of its own (a
 * rank read, a score update) is a constant, its length, and a tail that changes once a second
 * (the Date): built once, not piece by piece for every answer.
 */
export class AnswerText {
  readonly #keepAliveSeconds: number;
  /** node:http's `Date` header: the same text for a whole second. */
  #date = '';
  /** The head after content-length: CRLF, Date, Connection, Keep-Alive and the blank line. */
  #tail = '';
  #until = 0;

  constructor(keepAliveSeconds: number) {
    this.#keepAliveSeconds = keepAliveSeconds;
  }

  /** The answer's bytes as text, or undefined for a route's bug (see answerHead). */
  of(answer: FrontAnswer): string | undefined {
    this.#tick();
    if (typeof answer === 'string') return OK_JSON + Buffer.byteLength(answer) + this.#tail + answer;
    const head = answerHead(answer, this.#date, this.#keepAliveSeconds);
    return head === undefined ? undefined : head + answer.body;
  }

  #tick(): void {
    const now = Date.now();
    // A clock set back more than a second starts the Date over, rather than freezing it.
    if (now < this.#until && now >= this.#until - 1000) return;
    this.#date = new Date(now).toUTCString();
    this.#tail = `\r\nDate: ${this.#date}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=${this.#keepAliveSeconds}\r\n\r\n`;
    this.#until = now - (now % 1000) + 1000;
  }
}

/** A plain 200 with a JSON body up to its length (see AnswerText). */
const OK_JSON = `HTTP/1.1 200 ${STATUS_CODES[200]}\r\ncontent-type: ${JSON_TYPE}\r\ncontent-length: `;

/**
 * The head for `answer`, or undefined when one of its headers is one node:http would refuse (a
 * route's bug: nothing of it may be sent).
 */
export function answerHead(answer: PlainAnswer, date: string, keepAliveSeconds: number): string | undefined {
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'unknown'}\r\n`;
  if (answer.headers !== undefined) {
    try {
      for (const name in answer.headers) {
        if (OWN_HEADERS.has(name)) continue;
        const value = answer.headers[name]!;
        // node:http's checks (no CR/LF, a token for a name); a connection header is the front's.
        validateHeaderName(name);
        validateHeaderValue(name, value);
        // Plain ASCII only: node:http writes a header as latin1, the front the whole answer as UTF-8.
        if (name.toLowerCase() === 'connection' || !ASCII_VALUE.test(value))
          throw new TypeError(`${name}: not for the front to write`);
        head += `${name}: ${value}\r\n`;
      }
    } catch {
      return undefined;
    }
  }
  return (
    head +
    `content-type: ${answer.type}\r\ncontent-length: ${Buffer.byteLength(answer.body)}\r\n` +
    `Date: ${date}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=${keepAliveSeconds}\r\n\r\n`
  );
}
