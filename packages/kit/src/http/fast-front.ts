/**
 * A plain-HTTP front for the fast routes: each new connection is read here first, and requests
 * the fast routes answer are parsed and answered on the socket directly, without node:http's
 * request and response objects, streams and per-request ticks (about half of bare node:http's
 * CPU per request: measured in docs/benchmarks.md). The first request that is not plainly a fast
 * one (fast-front-head.ts), or that a fast route declines, hands the connection to node:http for
 * good: that request's bytes and everything after them go back into the socket, and node:http
 * reads them as if it had read the connection from the start. So node:http and fastify still
 * answer every other request, every malformed one and every error, with their limits. (A request
 * handed over is offered to the fast routes again on node:http's side, fast-routes.ts#serve: a
 * declined one did nothing, so that is a second look, never a second effect.)
 *
 * Rules that keep this equal to node:http for the requests it takes:
 *   - one request of a connection at a time: the next is read only once the answer is written, so
 *     answers go out in order and a declined request has had no effect when node:http gets it;
 *   - only whole requests: one that has not fully arrived goes to node:http, whose header and
 *     request deadlines then hold (a slow client cannot hold a connection here); a connection that
 *     sends nothing at all is closed after the header deadline (node:http would first write a 408);
 *   - the answer's bytes are node:http's for the same answer (status line, headers in that order,
 *     Date, Connection: keep-alive, Keep-Alive), checked by a test against node:http itself;
 *   - an idle connection closes after the keep-alive timeout (and node:http's grace beyond it), as
 *     node:http's does, but never while an answer is due; closing the server closes the idle ones
 *     here too, and the busy ones after their answer;
 *   - once a write's answer is on its way it is never handed over (a broken answer closes the
 *     connection instead), and an answer's headers must pass node:http's own checks.
 * Plain HTTP only: a TLS server keeps node:https for everything.
 */
import type { Server } from 'node:http';
import { STATUS_CODES, validateHeaderName, validateHeaderValue } from 'node:http';
import type { Socket } from 'node:net';
import { readFrontHead } from './fast-front-head.ts';
import type { PlainAnswer } from './fast-route-types.ts';
import { MAX_REMEMBERED_LENGTH, OWN_HEADERS, type FastRoutes } from './fast-routes.ts';

export interface FrontOptions {
  readonly maxUrlLength: number;
  /** Advertised in Keep-Alive; an idle connection closes after it and node:http's grace. */
  readonly keepAliveTimeoutMs: number;
  /** A new connection's first request must have come by then (node:http's headersTimeout). */
  readonly headersTimeoutMs: number;
}

/** What a connection needs to know of the server's timing. */
interface Timing extends FrontOptions {
  /** Keep-alive timeout plus node:http's `keepAliveTimeoutBuffer`. */
  readonly idleTimeoutMs: number;
}

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
/** node:http's own limit on a head (431 above it): a longer one is node:http's to refuse. */
const MAX_HEAD_BYTES = 16_384;
const ASCII_VALUE = /^[\t\x20-\x7e]*$/;
/** Bytes a client may send ahead of an answer still to come before the socket stops reading. */
const MAX_AHEAD_BYTES = 65_536;

/** Node's `Date` header: the same text for a whole second. */
class DateHeader {
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
 * Puts the front before node:http's own connection handling on `server`: node:http gets a
 * connection only when the front hands it over.
 */
export function installFastFront(server: Server, fast: FastRoutes, options: FrontOptions): void {
  const nodeListeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  const handOver = (socket: Socket) => {
    for (const listener of nodeListeners) listener.call(server, socket);
  };
  const open = new Set<FrontConnection>();
  const date = new DateHeader();
  // Node closes an idle connection this long after the advertised timeout (1 s in Node 24).
  const grace = (server as Server & { keepAliveTimeoutBuffer?: number }).keepAliveTimeoutBuffer ?? 1000;
  const timing: Timing = { ...options, idleTimeoutMs: options.keepAliveTimeoutMs + grace };
  let closing = false;
  server.on('connection', (socket: Socket) => {
    if (closing) return handOver(socket);
    const connection = new FrontConnection(socket, fast, timing, date, {
      handOver: (s) => {
        open.delete(connection);
        handOver(s);
      },
      closed: () => open.delete(connection),
      closing: () => closing,
    });
    open.add(connection);
  });
  // node:http closes its own connections on these; the front closes its own beside them.
  const closeIdle = server.closeIdleConnections.bind(server);
  const closeAll = server.closeAllConnections.bind(server);
  server.closeIdleConnections = () => {
    closing = true;
    for (const connection of open) connection.closeWhenIdle();
    closeIdle();
  };
  server.closeAllConnections = () => {
    closing = true;
    for (const connection of open) connection.destroy();
    closeAll();
  };
}

interface FrontHooks {
  handOver(socket: Socket): void;
  closed(): void;
  closing(): boolean;
}

class FrontConnection {
  readonly #socket: Socket;
  readonly #fast: FastRoutes;
  readonly #options: Timing;
  readonly #date: DateHeader;
  readonly #hooks: FrontHooks;
  /** Bytes read and not yet answered: the request being answered first, then what came after. */
  #pending: Buffer | undefined;
  /**
   * A request's answer is still to come, or the socket's write buffer is full: nothing more is
   * answered until then (and past MAX_AHEAD_BYTES nothing more is read).
   */
  #busy = false;
  /** The client sent its FIN: the connection ends once the answers due are written. */
  #ended = false;
  #gone = false;
  /** The socket's timeout is the keep-alive one (after the first answer), not the header deadline. */
  #idle = false;
  /** This connection's last Authorization value, bytes and text (see #authorizationText). */
  #authorization: { readonly bytes: Buffer; readonly text: string } | undefined;
  /**
   * A client sends the same Authorization with every request: while it does, each request gets
   * the same string, so the token caches keyed by it hash and compare it once, not every time.
   */
  readonly #authorizationText = (bytes: Buffer, start: number, end: number): string => {
    const last = this.#authorization;
    if (
      last?.bytes.length === end - start &&
      bytes.compare(last.bytes, 0, last.bytes.length, start, end) === 0
    )
      return last.text;
    if (end - start > MAX_REMEMBERED_LENGTH) return bytes.toString('latin1', start, end);
    this.#authorization = {
      bytes: Buffer.from(bytes.subarray(start, end)),
      text: bytes.toString('latin1', start, end),
    };
    return this.#authorization.text;
  };
  readonly #onData = (chunk: Buffer): void => {
    this.#pending = this.#pending === undefined ? chunk : Buffer.concat([this.#pending, chunk]);
    if (!this.#busy) this.#serve();
    else if (this.#pending.length > MAX_AHEAD_BYTES) this.#socket.pause();
  };
  readonly #onEnd = (): void => {
    this.#ended = true;
    if (!this.#busy) this.#socket.end();
  };
  readonly #onDrain = (): void => this.#resume();
  readonly #onTimeout = (): void => {
    // An answer still due keeps the connection (the write that ends the wait re-arms the timer).
    if (!this.#busy) this.destroy();
  };
  readonly #onClose = (): void => {
    this.#gone = true;
    this.#hooks.closed();
  };

  constructor(socket: Socket, fast: FastRoutes, options: Timing, date: DateHeader, hooks: FrontHooks) {
    this.#socket = socket;
    this.#fast = fast;
    this.#options = options;
    this.#date = date;
    this.#hooks = hooks;
    socket.setNoDelay(true);
    socket.setTimeout(options.headersTimeoutMs);
    socket.on('timeout', this.#onTimeout);
    socket.on('data', this.#onData);
    socket.on('end', this.#onEnd);
    socket.on('error', this.#onError);
    socket.on('close', this.#onClose);
  }

  closeWhenIdle(): void {
    if (!this.#busy && this.#pending === undefined) this.destroy();
  }

  destroy(): void {
    this.#socket.destroy();
  }

  readonly #onError = (): void => {
    // Reset by the peer and the like: nobody is left to answer (node:http does the same).
    this.destroy();
  };

  /** Answers the whole requests read so far, one at a time, until one is not the front's. */
  #serve(): void {
    while (this.#pending !== undefined && !this.#gone) {
      const pending = this.#pending;
      const headEnd = pending.indexOf(HEAD_END);
      // Not whole (or too long to be ours): node:http's deadlines and limits take it from here.
      if (headEnd < 0 || headEnd > MAX_HEAD_BYTES) return this.#handOver();
      const head = readFrontHead(pending, headEnd, this.#options.maxUrlLength, this.#authorizationText);
      if (head === undefined) return this.#handOver();
      const end = headEnd + HEAD_END.length + (head.contentLength ?? 0);
      if (pending.length < end) return this.#handOver();
      const body = head.method === 'POST' ? pending.subarray(headEnd + HEAD_END.length, end) : undefined;
      const answer = this.#fast.answerPlain({ ...head, body });
      if (answer === undefined) return this.#handOver();
      if (!(answer instanceof Promise)) {
        if (this.#write(answer, end)) continue;
        return;
      }
      this.#busy = true;
      const { method } = head;
      answer.then(
        (later) => this.#answered(later, end),
        // answerPlain's promises settle with an answer or undefined: this is a bug in a route. A
        // read may go to node:http; a write may have been done, so it must not be offered again.
        () => (method === 'GET' ? this.#answered(undefined, end) : this.destroy()),
      );
      return;
    }
  }

  #answered(answer: PlainAnswer | undefined, end: number): void {
    if (this.#gone) return;
    if (answer === undefined) return this.#handOver();
    try {
      if (this.#write(answer, end)) this.#resume();
    } catch {
      // An answer that cannot be written (a route's bug): the connection closes, nothing is redone.
      this.destroy();
    }
  }

  /** Goes on after an answer came or the write buffer drained. */
  #resume(): void {
    this.#busy = false;
    if (this.#gone) return;
    if ((this.#ended || this.#hooks.closing()) && this.#pending === undefined) {
      this.#gone = true;
      this.#socket.end();
      return;
    }
    if (this.#socket.isPaused()) this.#socket.resume();
    this.#serve();
  }

  /**
   * Writes the answer to the request that ends at `end` of the pending bytes, and drops it; false
   * (and busy until 'drain') when the socket's buffer is full.
   */
  #write(answer: PlainAnswer, end: number): boolean {
    const pending = this.#pending!;
    this.#pending = end < pending.length ? pending.subarray(end) : undefined;
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
        // A route's bug, which node:http would throw on: nothing of it is sent.
        this.destroy();
        this.#gone = true;
        return false;
      }
    }
    head +=
      `content-type: ${answer.type}\r\ncontent-length: ${Buffer.byteLength(answer.body)}\r\n` +
      `Date: ${this.#date.text}\r\nConnection: keep-alive\r\n` +
      `Keep-Alive: timeout=${Math.floor(this.#options.keepAliveTimeoutMs / 1000)}\r\n\r\n`;
    const flushed = this.#socket.write(head + answer.body);
    if (!this.#idle) {
      this.#idle = true;
      this.#socket.setTimeout(this.#options.idleTimeoutMs);
    }
    if (this.#hooks.closing() && this.#pending === undefined) {
      this.#socket.end();
      this.#gone = true;
      return false;
    }
    if (flushed) return true;
    this.#busy = true;
    this.#socket.once('drain', this.#onDrain);
    return false;
  }

  /**
   * node:http takes the connection from the first byte not answered here. The socket is paused
   * while the bytes go back in front of its buffer, so none is emitted between the two readers.
   */
  #handOver(): void {
    const socket = this.#socket;
    // After the client's FIN there is nothing node:http could read (it drops such requests too).
    if (this.#ended) {
      this.#gone = true;
      socket.end();
      return;
    }
    socket.pause();
    socket.removeListener('data', this.#onData);
    socket.removeListener('end', this.#onEnd);
    socket.removeListener('drain', this.#onDrain);
    socket.removeListener('error', this.#onError);
    socket.removeListener('close', this.#onClose);
    socket.setTimeout(0);
    socket.removeListener('timeout', this.#onTimeout);
    this.#gone = true;
    if (this.#pending !== undefined) socket.unshift(this.#pending);
    this.#pending = undefined;
    this.#hooks.handOver(socket);
    socket.resume();
  }
}
