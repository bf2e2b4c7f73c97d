/**
 * Fast answers in front of fastify: a service may register, beside a full route, an answerer for
 * the cheap common case of that route (a cached top list, one player's rank, a plain score
 * update, a public order book). It sees the request before fastify does and either answers it
 * completely, or declines (undefined) and the request takes the full route as if nothing had
 * looked at it.
 *
 * Why: at 20,000 requests/s, fastify's hook and reply pipeline costs more than the answer itself.
 * What the full route would do is kept: an answer for a route with a scope needs a bearer token
 * already verified (the authenticator's cache) with that scope and a single Authorization header;
 * a public answer (`addPublic`, for routes without `auth`) needs none. Either needs no body, and
 * is counted in the same request-duration series. Anything else (an unknown or refused token, a
 * query the answerer does not handle, an error) takes the full route, which alone answers
 * failures. Fast answers are only installed where the full route adds nothing per request: no
 * rate limits, no tracing, no debug request log (see createHttpApp).
 *
 * An answer that must ask a store gives a promise: the request is then its own. Its body is sent
 * as a 200; a coded problem is answered here as the full route would send it (the store is not
 * asked twice); an undefined, or any other failure, hands the request to the full route then.
 *
 * A write (POST with a JSON body) is taken only with a declared length within the answerer's
 * limit and a plain JSON content type. Its body is read here; when the answerer declines it (not
 * JSON, not the plain case), the bytes already read are handed to fastify, whose route parses,
 * validates and answers them as if it had read them (`preReadBody`, from a preParsing hook). Only
 * the answerer's own failures are answered here: a coded problem as the full route would send it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Authenticator, Principal } from '../auth.ts';
import { kitErrors, problemBody, ProblemError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { bearerToken, repeatsAuthorization } from './bearer.ts';
import type {
  FastAnswer,
  FastReply,
  FastWrite,
  ObserveRequest,
  PlainAnswer,
  PlainRequest,
  PublicFastAnswer,
} from './fast-route-types.ts';

/** A GET's fast answer: now, or later from a store (see FastAnswer). */
interface FoundAnswer {
  readonly route: string;
  readonly body: string | Promise<string | undefined>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
// fastify's reply.type() adds the charset: the full route's answer, byte for byte.
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/**
 * Calls `then` with the whole body once it has come. A body that never completes is Node's
 * request deadline's (the edge's 408); an aborted one has nobody to answer.
 */
function readWhole(req: IncomingMessage, then: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.once('end', () => then(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
}

/** A fast write's body, to be read once this turn's parsing is done (see #post). */
interface BodyToRead {
  readonly req: IncomingMessage;
  readonly length: number;
  readonly take: (body: Buffer) => void;
}

/** Set by #send itself, over any of the same name among an answer's headers. */
export const OWN_HEADERS: ReadonlySet<string> = new Set(['content-type', 'content-length']);

const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);

/** Authorization headers whose tokens are remembered (all forgotten at once past this). */
const MAX_REMEMBERED_TOKENS = 1024;
/**
 * Longer Authorization headers are read each time, here and by the front's connections: the
 * memory a client can make the server hold stays small.
 */
export const MAX_REMEMBERED_LENGTH = 4096;

/** Registered answers, tried in order on every GET, and writes by request target. */

export class FastRoutes {
  readonly #answers: FastAnswer[] = [];
  readonly #publicAnswers: PublicFastAnswer[] = [];
  readonly #writes = new Map<string, FastWrite>();
  readonly #authenticator: Authenticator;
  readonly #logger: Logger;
  /** Bodies read here and then declined, for the full route to parse. */
  readonly #declined = new WeakMap<IncomingMessage, Buffer>();
  #failures = 0;
  /** Authorization headers seen lately and their bearer tokens (see #principalOf). */
  readonly #tokens = new Map<string, string | undefined>();
  #observe: ObserveRequest = () => {};
  /** The fast writes of this turn whose bodies are still to read: one immediate reads them all. */
  #bodies: BodyToRead[] = [];
  readonly #readBodies = (): void => {
    const bodies = this.#bodies;
    this.#bodies = [];
    for (const { req, length, take } of bodies) {
      if (req.complete && req.readableLength === length) take(req.read() as Buffer);
      else readWhole(req, take);
    }
  };

  constructor(authenticator: Authenticator, logger: Logger) {
    this.#authenticator = authenticator;
    this.#logger = logger;
  }

  /** Where fast answers are counted: the app's request-duration metric, once it exists. */
  countWith(observe: ObserveRequest): void {
    this.#observe = observe;
  }

  add(answer: FastAnswer): void {
    this.#answers.push(answer);
  }

  addPublic(answer: PublicFastAnswer): void {
    this.#publicAnswers.push(answer);
  }

  addWrite(write: FastWrite): void {
    this.#writes.set(write.route, write);
  }

  /** The body this request's fast write read and declined, once (then the full route's). */
  preReadBody(req: IncomingMessage): Buffer | undefined {
    const body = this.#declined.get(req);
    this.#declined.delete(req);
    return body;
  }

  /**
   * Answers `req` and returns true; or returns false having touched nothing; or returns true and
   * hands the request to `fullRoute` later: a write once its body is read and declined, a read
   * once an answer still to come declines it.
   */
  serve(req: IncomingMessage, res: ServerResponse, fullRoute: RequestListener): boolean {
    if (req.method === 'GET') return this.#get(req, res, fullRoute);
    if (req.method === 'POST') return this.#post(req, res, fullRoute);
    return false;
  }

  /**
   * The front's way in (fast-front.ts): the answer to a request it read whole, now or later, or
   * undefined when the full route must answer it (the front then hands the connection, this
   * request first, to node:http). A later undefined means the same. The rules are #get's and
   * #post's, applied to what the front read instead of node:http's request.
   */
  answerPlain(request: PlainRequest): PlainAnswer | Promise<PlainAnswer | undefined> | undefined {
    const started = performance.now();
    if (request.method === 'POST') return this.#plainPost(request, started);
    if (request.contentLength !== undefined) return undefined;
    const found = this.#findGet(request.url, () => this.#principalOf(request.authorization, false));
    if (found === undefined) return undefined;
    if (typeof found.body === 'string') {
      this.#observe('GET', found.route, 200, (performance.now() - started) / 1000);
      return { status: 200, type: JSON_TYPE, body: found.body, headers: undefined };
    }
    return found.body.then(
      (body) => {
        if (body === undefined) return undefined;
        this.#observe('GET', found.route, 200, (performance.now() - started) / 1000);
        return { status: 200, type: JSON_TYPE, body, headers: undefined };
      },
      (error: unknown) => {
        if (!(error instanceof ProblemError)) return undefined;
        if (error.status >= 500) this.#logger.error({ err: error, code: error.code }, 'request failed');
        this.#observe('GET', found.route, error.status, (performance.now() - started) / 1000);
        return this.#problemAnswer(error);
      },
    );
  }

  #plainPost(request: PlainRequest, started: number): Promise<PlainAnswer> | undefined {
    if (request.body === undefined) return undefined;
    const taken = this.#writeFor(
      request.url,
      request.contentLength,
      request.contentType,
      request.authorization,
      false,
    );
    if (taken === undefined) return undefined;
    const { write, principal } = taken;
    const answer = this.#tryWrite(write, request.body, principal);
    if (answer === undefined) return undefined;
    return answer.then(
      (reply): PlainAnswer => {
        this.#observe('POST', write.route, 200, (performance.now() - started) / 1000);
        return { status: 200, type: JSON_TYPE, body: reply.body, headers: reply.headers };
      },
      (error: unknown): PlainAnswer => {
        const problem = this.#problemOf(error);
        this.#observe('POST', write.route, problem.status, (performance.now() - started) / 1000);
        return this.#problemAnswer(problem);
      },
    );
  }

  /**
   * The fast write for a POST to `url` and the principal it runs as, when the request is the plain
   * case: a declared length within the write's limit, a plain JSON content type, one Authorization
   * header with a known token that has the write's scope. Otherwise the full route's.
   */
  #writeFor(
    url: string,
    length: number | undefined,
    contentType: string | undefined,
    authorization: string | undefined,
    repeated: boolean,
  ): { write: FastWrite; principal: Principal } | undefined {
    const write = this.#writes.get(url);
    if (write === undefined || length === undefined || !(length > 0 && length <= write.maxBodyBytes))
      return undefined;
    const type = contentType?.toLowerCase();
    if (type === undefined || !JSON_TYPES.has(type)) return undefined;
    const principal = this.#principalOf(authorization, repeated);
    if (principal === undefined || !principal.scopes.has(write.scope)) return undefined;
    return { write, principal };
  }

  #principal(req: IncomingMessage): Principal | undefined {
    return this.#principalOf(req.headers.authorization, repeatsAuthorization(req.rawHeaders));
  }

  #principalOf(authorization: string | undefined, repeated: boolean): Principal | undefined {
    if (authorization === undefined || repeated) return undefined;
    // A client sends the same header with every call: its token is read off it once, and is then
    // the same string each time, whose hash the token cache does not compute again. (The front
    // gives a connection's repeated header as one string too: there this lookup hashes nothing.)
    let token = this.#tokens.get(authorization);
    if (token === undefined && !this.#tokens.has(authorization)) {
      token = bearerToken(authorization);
      if (authorization.length <= MAX_REMEMBERED_LENGTH) {
        if (this.#tokens.size >= MAX_REMEMBERED_TOKENS) this.#tokens.clear();
        this.#tokens.set(authorization, token);
      }
    }
    if (token === undefined) return undefined;
    return this.#authenticator.known?.(token);
  }

  #get(req: IncomingMessage, res: ServerResponse, fullRoute: RequestListener): boolean {
    if (this.#answers.length === 0 && this.#publicAnswers.length === 0) return false;
    const started = performance.now();
    const { headers } = req;
    // A body (or a promise of one) is the full route's to refuse or ignore.
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const found = this.#findGet(req.url ?? '', () => this.#principal(req));
    if (found === undefined) return false;
    if (typeof found.body === 'string') this.#answered(res, found.route, started, found.body);
    else this.#answerLater(req, res, found.route, started, found.body, fullRoute);
    return true;
  }

  /** The first answer that takes this target: public ones first, then those of the token's scopes. */
  #findGet(url: string, principalOf: () => Principal | undefined): FoundAnswer | undefined {
    for (const fast of this.#publicAnswers) {
      let body: string | undefined | Promise<string | undefined>;
      try {
        body = fast.answer(url);
      } catch {
        continue; // the full route meets the same failure and answers it
      }
      if (body !== undefined) return { route: fast.route, body };
    }
    if (this.#answers.length === 0) return undefined;
    const principal = principalOf();
    if (principal === undefined) return undefined;
    for (const fast of this.#answers) {
      if (!principal.scopes.has(fast.scope)) continue;
      let body: string | undefined | Promise<string | undefined>;
      try {
        body = fast.answer(url, principal);
      } catch {
        continue; // the full route meets the same failure and answers it
      }
      if (body !== undefined) return { route: fast.route, body };
    }
    return undefined;
  }

  /**
   * The request is this answer's once it is a promise. A body comes as a 200; a problem is answered
   * here as the full route would (no second look at the store); an undefined or any other failure
   * goes to the full route, which answers it. Nothing is sent for a client that has left.
   */
  #answerLater(
    req: IncomingMessage,
    res: ServerResponse,
    route: string,
    started: number,
    later: Promise<string | undefined>,
    fullRoute: RequestListener,
  ): void {
    later.then(
      (body) => {
        if (res.destroyed || res.headersSent) return;
        if (body === undefined) fullRoute(req, res);
        else this.#answered(res, route, started, body);
      },
      (error: unknown) => {
        if (res.destroyed || res.headersSent) return;
        if (!(error instanceof ProblemError)) {
          fullRoute(req, res);
          return;
        }
        // Logged as the full route's problem handler logs it: a server-side failure is an error.
        if (error.status >= 500) this.#logger.error({ err: error, code: error.code }, 'request failed');
        this.#sendProblem(res, error);
        this.#observe('GET', route, error.status, (performance.now() - started) / 1000);
      },
    );
  }

  /** A fast answer's 200, counted in the request-duration series of its route. */
  #answered(res: ServerResponse, route: string, started: number, body: string): void {
    this.#send(res, 200, body, JSON_TYPE, undefined);
    this.#observe('GET', route, 200, (performance.now() - started) / 1000);
  }

  #post(req: IncomingMessage, res: ServerResponse, fullRoute: RequestListener): boolean {
    if (!this.#writes.has(req.url ?? '')) return false;
    const { headers } = req;
    // Chunked, compressed or 100-continue bodies are the full route's (the front never takes them).
    if (
      headers['transfer-encoding'] !== undefined ||
      headers['content-encoding'] !== undefined ||
      headers.expect !== undefined
    ) {
      return false;
    }
    const length = Number(headers['content-length']);
    const taken = this.#writeFor(
      req.url ?? '',
      length,
      headers['content-type'],
      headers.authorization,
      repeatsAuthorization(req.rawHeaders),
    );
    if (taken === undefined) return false;
    const { write, principal } = taken;
    const started = performance.now();
    const take = (body: Buffer): void => {
      const answer = this.#tryWrite(write, body, principal);
      if (answer === undefined) {
        this.#declined.set(req, body);
        fullRoute(req, res);
        return;
      }
      // One reaction for either outcome: no further promise per request.
      answer.then(
        (reply) => {
          this.#send(res, 200, reply.body, JSON_TYPE, reply.headers);
          this.#observe('POST', write.route, 200, (performance.now() - started) / 1000);
        },
        (error: unknown) => {
          const problem = this.#problemOf(error);
          this.#sendProblem(res, problem);
          this.#observe('POST', write.route, problem.status, (performance.now() - started) / 1000);
        },
      );
    };
    // A small body nearly always comes in the packet that brought the headers: once this turn's
    // parsing is done, Node holds it whole and it is taken in one read, without switching the
    // request to flowing mode ('data' and 'end' events cost about as much as the rest of a POST
    // over a GET, measured on bare node:http). Otherwise it is read as it comes. One immediate
    // for all the writes of a turn, not one each.
    if (this.#bodies.push({ req, length, take }) === 1) setImmediate(this.#readBodies);
    return true;
  }

  #tryWrite(write: FastWrite, body: Buffer, principal: Principal): Promise<FastReply> | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return undefined; // the full route answers what is wrong with it
    }
    try {
      return write.write(parsed, principal);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #problemOf(error: unknown): ProblemError {
    if (error instanceof ProblemError) return error;
    const id = `fast-${++this.#failures}`;
    this.#logger.error({ err: error, reqId: id, code: 'KIT_INTERNAL' }, 'request failed');
    return kitErrors.KIT_INTERNAL(`an unexpected error occurred (request id ${id})`);
  }

  #problemAnswer(problem: ProblemError): PlainAnswer {
    const body = JSON.stringify(problemBody(problem));
    return { status: problem.status, type: PROBLEM_TYPE, body, headers: problem.headers };
  }

  #sendProblem(res: ServerResponse, problem: ProblemError): void {
    const { status, body, type, headers } = this.#problemAnswer(problem);
    this.#send(res, status, body, type, headers);
  }

  #send(
    res: ServerResponse,
    status: number,
    body: string,
    type: string,
    headers: Readonly<Record<string, string>> | undefined,
  ): void {
    // A flat list: Node writes it as it comes, without an object to copy and walk.
    const head: string[] = [];
    if (headers !== undefined) {
      for (const name in headers) if (!OWN_HEADERS.has(name)) head.push(name, headers[name]!);
    }
    head.push('content-type', type, 'content-length', String(Buffer.byteLength(body)));
    res.writeHead(status, head);
    res.end(body);
  }
}
