/**
 * The bytes of a fast answer's head as node:http writes them for the same answer (status line,
 * the route's headers, content-type and -length, Date, Connection, Keep-Alive): a test compares
 * them with node:http's own (fast-front.test.ts).
 */
import { STATUS_CODES, validateHeaderName, validateHeaderValue } from 'node:http';
import type { PlainAnswer } from './fast-route-types.ts';
import { OWN_HEADERS } from './fast-outcomes.ts';

const ASCII_VALUE = /^[\t\x20-\x7e]*$/;

/** Node's `Date` header: the same text for a whole second. */
export class DateHeader {
  #text = '';
  #until = 0;

  get text(): string {
    const now = Date.now();
    if (now >= this.#until) {
      this.#text = new Date(now).toUTCString();
      this.#until = now - (now % 1000) + 1000;
    }
    return this.#text;
  }
}

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
