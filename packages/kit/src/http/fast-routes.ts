/**
 * Fast GET answers in front of fastify: a service may register, beside a full route, an answerer
 * for the cheap common case of that route (a cached top list, one player's rank). It sees the
 * request before fastify does and either answers it completely, or declines (undefined) and the
 * request takes the full route as if nothing had looked at it.
 *
 * Why: at 20,000 requests/s, fastify's hook and reply pipeline costs more than the answer itself.
 * What the full route would do is kept: the answer needs a bearer token already verified (the
 * authenticator's cache) with the route's scope, a single Authorization header, no body, and it
 * is counted in the same request-duration series. Anything else (an unknown or refused token,
 * a query the answerer does not handle, an error) takes the full route, which alone answers
 * failures. Fast answers are only installed where the full route adds nothing per request: no
 * rate limits, no tracing, no debug request log (see createHttpApp).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator, Principal } from '../auth.ts';
import { bearerToken, repeatsAuthorization } from './bearer.ts';

export interface FastAnswer {
  /** The route pattern, for the request-duration metric (`/v1/scores/:user_id`). */
  readonly route: string;
  /** The scope the full route requires. */
  readonly scope: string;
  /** The JSON body of a 200 for this request target, or undefined to let the full route answer. */
  answer(url: string, principal: Principal): string | undefined;
}

export type ObserveRequest = (method: string, route: string, statusCode: number, seconds: number) => void;

/** Registered answers, tried in order on every GET. */
export class FastRoutes {
  readonly #answers: FastAnswer[] = [];
  readonly #authenticator: Authenticator;
  #observe: ObserveRequest = () => {};

  constructor(authenticator: Authenticator) {
    this.#authenticator = authenticator;
  }

  /** Where fast answers are counted: the app's request-duration metric, once it exists. */
  countWith(observe: ObserveRequest): void {
    this.#observe = observe;
  }

  add(answer: FastAnswer): void {
    this.#answers.push(answer);
  }

  /** Answers `req` and returns true, or returns false having touched nothing. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || this.#answers.length === 0) return false;
    const started = performance.now();
    const { headers } = req;
    // A body (or a promise of one) is the full route's to refuse or ignore.
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const token = bearerToken(headers.authorization);
    if (token === undefined || repeatsAuthorization(req.rawHeaders)) return false;
    const principal = this.#authenticator.known?.(token);
    if (principal === undefined) return false;
    const url = req.url ?? '';
    for (const fast of this.#answers) {
      if (!principal.scopes.has(fast.scope)) continue;
      let body: string | undefined;
      try {
        body = fast.answer(url, principal);
      } catch {
        body = undefined; // the full route will meet the same failure and answer it properly
      }
      if (body === undefined) continue;
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
      this.#observe('GET', fast.route, 200, (performance.now() - started) / 1000);
      return true;
    }
    return false;
  }
}
