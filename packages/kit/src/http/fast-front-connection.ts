/**
 * One connection read by the fast front (fast-front.ts): its whole requests answered one at a
 * time on the socket, until the first that is not the front's hands the connection to node:http.
 */
import type { Socket } from 'node:net';
import type { AnswerText } from './fast-front-answer.ts';
import { readFrontHead, type HeadTexts } from './fast-front-head.ts';
import { RememberedText } from './fast-front-texts.ts';
import type { FrontAnswer } from './fast-route-types.ts';
import type { FastRoutes } from './fast-routes.ts';

export interface FrontOptions {
  readonly maxUrlLength: number;
  /** Advertised in Keep-Alive; an idle connection closes after it and node:http's grace. */
  readonly keepAliveTimeoutMs: number;
  /** A new connection's first request must have come by then (node:http's headersTimeout). */
  readonly headersTimeoutMs: number;
}

/** What a connection needs to know of the server's timing. */
export interface Timing extends FrontOptions {
  /** Keep-alive timeout plus node:http's `keepAliveTimeoutBuffer`. */
  readonly idleTimeoutMs: number;
}

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
/** node:http's own limit on a head (431 above it): a longer one is node:http's to refuse. */
const MAX_HEAD_BYTES = 16_384;
/** Bytes a client may send ahead of an answer still to come before the socket stops reading. */
const MAX_AHEAD_BYTES = 65_536;

export interface FrontHooks {
  handOver(socket: Socket): void;
  closed(): void;
  closing(): boolean;
}

export class FrontConnection {
  readonly #socket: Socket;
  readonly #fast: FastRoutes;
  readonly #options: Timing;
  readonly #answerText: AnswerText;
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
  /** A client sends the same target, token and content type again and again: one string each. */
  readonly #texts: HeadTexts = {
    url: new RememberedText().read,
    authorization: new RememberedText().read,
    contentType: new RememberedText().read,
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
  /**
   * The request whose answer is still to come (one at a time: the connection is busy until it
   * comes), for the two reactions below, made once per connection rather than once per request.
   */
  #dueEnd = 0;
  #dueIsRead = false;
  readonly #onAnswer = (later: FrontAnswer | undefined): void => this.#answered(later, this.#dueEnd);
  // answerPlain's promises settle with an answer or undefined: this is a bug in a route. A read
  // may go to node:http; a write may have been done, so it must not be offered again.
  readonly #onAnswerFailed = (): void =>
    this.#dueIsRead ? this.#answered(undefined, this.#dueEnd) : this.destroy();
  readonly #onDrain = (): void => this.#resume();
  readonly #onTimeout = (): void => {
    // An answer still due keeps the connection (the write that ends the wait re-arms the timer).
    if (!this.#busy) this.destroy();
  };
  readonly #onClose = (): void => {
    this.#gone = true;
    this.#hooks.closed();
  };

  constructor(socket: Socket, fast: FastRoutes, options: Timing, answerText: AnswerText, hooks: FrontHooks) {
    this.#socket = socket;
    this.#fast = fast;
    this.#options = options;
    this.#answerText = answerText;
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
      const head = readFrontHead(pending, headEnd, this.#options.maxUrlLength, this.#texts);
      if (head === undefined) return this.#handOver();
      const end = headEnd + HEAD_END.length + (head.contentLength ?? 0);
      if (pending.length < end) return this.#handOver();
      const body = head.method === 'POST' ? pending.subarray(headEnd + HEAD_END.length, end) : undefined;
      const answer = this.#fast.answerPlain(head, body);
      if (answer === undefined) return this.#handOver();
      if (!(answer instanceof Promise)) {
        if (this.#write(answer, end)) continue;
        return;
      }
      this.#busy = true;
      this.#dueEnd = end;
      this.#dueIsRead = head.method === 'GET';
      answer.then(this.#onAnswer, this.#onAnswerFailed);
      return;
    }
  }

  #answered(answer: FrontAnswer | undefined, end: number): void {
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
  #write(answer: FrontAnswer, end: number): boolean {
    const pending = this.#pending!;
    this.#pending = end < pending.length ? pending.subarray(end) : undefined;
    const text = this.#answerText.of(answer);
    if (text === undefined) {
      // A route's bug, which node:http would throw on: nothing of it is sent.
      this.destroy();
      this.#gone = true;
      return false;
    }
    const flushed = this.#socket.write(text);
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
