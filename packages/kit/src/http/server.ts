/**
 * The node:http(s) server under fastify, with the deadlines and limits a public edge needs:
 * - a request (headers and body) must arrive within `requestTimeoutMs`, else 408 and close: a
 *   body trickling in a byte at a time cannot hold a connection. Node checks this on a timer
 *   (`connectionsCheckingInterval`, 30 s by default): ours runs often enough that the deadline
 *   holds to a tenth of itself (at most one second late), in native code, off the request path;
 * - the header deadline is Node's `headersTimeout`, at most the request deadline;
 * - a request target longer than `maxUrlLength` is answered 414 before routing (one length
 *   comparison per request), an HTTP/1.1 request without Host 400, both as problems.
 */
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, RequestListener, Server, ServerOptions, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { kitErrors, problemBody } from '../errors.ts';
import type { ProblemError } from '../errors.ts';
import { installFastFront } from './fast-front.ts';
import type { FastRoutes } from './fast-routes.ts';

export interface ServerLimits {
  requestTimeoutMs: number;
  maxUrlLength: number;
  tls?: { cert: Buffer; key: Buffer };
  /** Answers some requests before fastify sees them (see fast-routes.ts). */
  fast?: FastRoutes;
  /** Plain HTTP: the fast routes answered on the socket before node:http (fast-front.ts). */
  fastFront?: boolean;
}

/** Fastify's own default, longer than the usual 60 s idle timeout of load balancers. */
const keepAliveTimeoutMs = 72_000;

export function checkingIntervalFor(requestTimeoutMs: number): number {
  return Math.min(1000, Math.max(25, Math.floor(requestTimeoutMs / 10)));
}

function answer(res: ServerResponse, problem: ProblemError): void {
  const body = JSON.stringify(problemBody(problem));
  // The body (if any) is not read: close rather than read it to find the next request.
  res.writeHead(problem.status, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
}

/** fastify's `serverFactory`. */
export function edgeServerFactory(
  limits: ServerLimits,
): (handler: RequestListener, options: unknown) => Server {
  return (handler) => {
    const { maxUrlLength, fast } = limits;
    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      if ((req.url?.length ?? 0) > maxUrlLength) {
        return answer(
          res,
          kitErrors.KIT_URI_TOO_LONG(`the request target is longer than ${maxUrlLength} characters`),
        );
      }
      // RFC 9112 §3.2: Node would answer this with a bare 400 of its own (requireHostHeader).
      if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
        return answer(res, kitErrors.KIT_MALFORMED_REQUEST('an HTTP/1.1 request needs a Host header'));
      }
      if (fast?.serve(req, res, handler) === true) return;
      handler(req, res);
    };
    const options: ServerOptions = {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: Math.min(60_000, limits.requestTimeoutMs),
      connectionsCheckingInterval: checkingIntervalFor(limits.requestTimeoutMs),
      keepAliveTimeout: keepAliveTimeoutMs,
      requireHostHeader: false,
    };
    if (limits.tls !== undefined) return createHttpsServer({ ...options, ...limits.tls }, onRequest);
    const server = createHttpServer(options, onRequest);
    if (fast !== undefined && limits.fastFront === true)
      installFastFront(server, fast, {
        maxUrlLength,
        keepAliveTimeoutMs,
        headersTimeoutMs: server.headersTimeout,
      });
    return server;
  };
}
