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
import type { Authenticator } from '../auth.ts';
import { ProblemError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { NodeFastAnswers } from './fast-node-answers.ts';
import { FastOutcomes, JSON_TYPE } from './fast-outcomes.ts';
import { FastRouteTable, tryWrite } from './fast-route-table.ts';
import type {
  FastAnswer,
  FastWrite,
  ObserveRequest,
  FrontAnswer,
  PlainRequest,
  PublicFastAnswer,
} from './fast-route-types.ts';

export class FastRoutes {
  readonly #table: FastRouteTable;
  readonly #outcomes: FastOutcomes;
  readonly #node: NodeFastAnswers;

  constructor(authenticator: Authenticator, logger: Logger) {
    this.#table = new FastRouteTable(authenticator);
    this.#outcomes = new FastOutcomes(logger);
    this.#node = new NodeFastAnswers(this.#table, this.#outcomes);
  }

  /** Where fast answers are counted: the app's request-duration metric, once it exists. */
  countWith(observe: ObserveRequest): void {
    this.#outcomes.observe = observe;
  }

  add(answer: FastAnswer): void {
    this.#table.add(answer);
  }

  addPublic(answer: PublicFastAnswer): void {
    this.#table.addPublic(answer);
  }

  addWrite(write: FastWrite): void {
    this.#table.addWrite(write);
  }

  /** The body this request's fast write read and declined, once (then the full route's). */
  preReadBody(req: IncomingMessage): Buffer | undefined {
    return this.#node.preReadBody(req);
  }

  /**
   * Answers `req` and returns true; or returns false having touched nothing; or returns true and
   * hands the request to `fullRoute` later: a write once its body is read and declined, a read
   * once an answer still to come declines it.
   */
  serve(req: IncomingMessage, res: ServerResponse, fullRoute: RequestListener): boolean {
    return this.#node.serve(req, res, fullRoute);
  }

  /**
   * The front's way in (fast-front.ts): the answer to a request it read whole, now or later, or
   * undefined when the full route must answer it (the front then hands the connection, this
   * request first, to node:http). A later undefined means the same. The rules are those of
   * node:http's side (fast-node-answers.ts), applied to what the front read. `body`: a POST's
   * whole body (given apart from the head: no object made per request to join them).
   */
  answerPlain(
    request: PlainRequest,
    body: Buffer | undefined,
  ): FrontAnswer | Promise<FrontAnswer | undefined> | undefined {
    const started = performance.now();
    if (request.method === 'POST') return this.#plainPost(request, body, started);
    if (request.contentLength !== undefined) return undefined;
    const table = this.#table;
    const found = table.findGet(request.url, () => table.principalOf(request.authorization, false));
    if (found === undefined) return undefined;
    const outcomes = this.#outcomes;
    // A 200 with a JSON body is its body alone (FrontAnswer): no object made per answer.
    if (typeof found.body === 'string') {
      outcomes.observe('GET', found.route, 200, (performance.now() - started) / 1000);
      return found.body;
    }
    return found.body.then(
      (body) => {
        if (body === undefined) return undefined;
        outcomes.observe('GET', found.route, 200, (performance.now() - started) / 1000);
        return body;
      },
      (error: unknown) => {
        if (!(error instanceof ProblemError)) return undefined;
        outcomes.logProblem(error);
        outcomes.observe('GET', found.route, error.status, (performance.now() - started) / 1000);
        return outcomes.problemAnswer(error);
      },
    );
  }

  #plainPost(
    request: PlainRequest,
    body: Buffer | undefined,
    started: number,
  ): Promise<FrontAnswer> | undefined {
    if (body === undefined) return undefined;
    const taken = this.#table.writeFor(
      request.url,
      request.contentLength,
      request.contentType,
      request.authorization,
      false,
    );
    if (taken === undefined) return undefined;
    const { write, principal } = taken;
    const answer = tryWrite(write, body, principal);
    if (answer === undefined) return undefined;
    const outcomes = this.#outcomes;
    return answer.then(
      (reply): FrontAnswer => {
        outcomes.observe('POST', write.route, 200, (performance.now() - started) / 1000);
        const { body, headers } = reply;
        return headers === undefined ? body : { status: 200, type: JSON_TYPE, body, headers };
      },
      (error: unknown): FrontAnswer => {
        const problem = outcomes.problemOf(error);
        outcomes.observe('POST', write.route, problem.status, (performance.now() - started) / 1000);
        return outcomes.problemAnswer(problem);
      },
    );
  }
}
