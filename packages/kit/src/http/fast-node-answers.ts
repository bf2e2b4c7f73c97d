/**
 * Fast answers on node:http's side (fast-routes.ts#serve): for requests node:http has parsed (a
 * connection the front handed over, or a server without the front), answered on its response
 * object; a write's body read here, and handed to the full route when the write declines it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ProblemError } from '../errors.ts';
import { repeatsAuthorization } from './bearer.ts';
import { type FastOutcomes, JSON_TYPE, OWN_HEADERS } from './fast-outcomes.ts';
import { type FastRouteTable, tryWrite } from './fast-route-table.ts';

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

export class NodeFastAnswers {
  readonly #table: FastRouteTable;
  readonly #outcomes: FastOutcomes;
  /** Bodies read here and then declined, for the full route to parse. */
  readonly #declined = new WeakMap<IncomingMessage, Buffer>();
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

  constructor(table: FastRouteTable, outcomes: FastOutcomes) {
    this.#table = table;
    this.#outcomes = outcomes;
  }

  /** The body this request's fast write read and declined, once (then the full route's). */
  preReadBody(req: IncomingMessage): Buffer | undefined {
    const body = this.#declined.get(req);
    this.#declined.delete(req);
    return body;
  }

  /** See FastRoutes#serve. */
  serve(req: IncomingMessage, res: ServerResponse, fullRoute: RequestListener): boolean {
    if (req.method === 'GET') return this.#get(req, res, fullRoute);
    if (req.method === 'POST') return this.#post(req, res, fullRoute);
    return false;
  }

  #get(req: IncomingMessage, res: ServerResponse, fullRoute: RequestListener): boolean {
    if (!this.#table.hasAnswers) return false;
    const started = performance.now();
    const { headers } = req;
    // A body (or a promise of one) is the full route's to refuse or ignore.
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const found = this.#table.findGet(req.url ?? '', () =>
      this.#table.principalOf(req.headers.authorization, repeatsAuthorization(req.rawHeaders)),
    );
    if (found === undefined) return false;
    if (typeof found.body === 'string') this.#answered(res, found.route, started, found.body);
    else this.#answerLater(req, res, found.route, started, found.body, fullRoute);
    return true;
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
        this.#outcomes.logProblem(error);
        this.#sendProblem(res, error);
        this.#outcomes.observe('GET', route, error.status, (performance.now() - started) / 1000);
      },
    );
  }

  /** A fast answer's 200, counted in the request-duration series of its route. */
  #answered(res: ServerResponse, route: string, started: number, body: string): void {
    send(res, 200, body, JSON_TYPE, undefined);
    this.#outcomes.observe('GET', route, 200, (performance.now() - started) / 1000);
  }

  #post(req: IncomingMessage, res: ServerResponse, fullRoute: RequestListener): boolean {
    if (!this.#table.hasWrite(req.url ?? '')) return false;
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
    const taken = this.#table.writeFor(
      req.url ?? '',
      length,
      headers['content-type'],
      headers.authorization,
      repeatsAuthorization(req.rawHeaders),
    );
    if (taken === undefined) return false;
    const { write, principal } = taken;
    const started = performance.now();
    const outcomes = this.#outcomes;
    const take = (body: Buffer): void => {
      const answer = tryWrite(write, body, principal);
      if (answer === undefined) {
        this.#declined.set(req, body);
        fullRoute(req, res);
        return;
      }
      // One reaction for either outcome: no further promise per request.
      answer.then(
        (reply) => {
          send(res, 200, reply.body, JSON_TYPE, reply.headers);
          outcomes.observe('POST', write.route, 200, (performance.now() - started) / 1000);
        },
        (error: unknown) => {
          const problem = outcomes.problemOf(error);
          this.#sendProblem(res, problem);
          outcomes.observe('POST', write.route, problem.status, (performance.now() - started) / 1000);
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

  #sendProblem(res: ServerResponse, problem: ProblemError): void {
    const { status, body, type, headers } = this.#outcomes.problemAnswer(problem);
    send(res, status, body, type, headers);
  }
}

function send(
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
