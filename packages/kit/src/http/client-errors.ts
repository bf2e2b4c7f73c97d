/**
 * Answers for what fails before fastify sees a request: bytes that are not HTTP (400), a request
 * that does not arrive in time (408), headers over Node's limit (431), a path that is not valid
 * percent-encoding. Node hands these to the server's `clientError` event with the bare socket, so
 * the problem is written as raw HTTP and the connection closes (the parser cannot go on).
 */
import { STATUS_CODES } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../logger.ts';
import { kitErrors, problemBody } from '../errors.ts';
import type { ProblemError } from '../errors.ts';
import { sendProblem } from './problem-handler.ts';

/** A complete HTTP/1.1 response carrying the problem, closing the connection. */
export function rawProblemResponse(problem: ProblemError): string {
  const body = JSON.stringify(problemBody(problem));
  return (
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}\r\n` +
    'Content-Type: application/problem+json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

interface ClientError extends Error {
  code?: string;
  /** llhttp's reason, e.g. "Invalid method encountered". */
  reason?: string;
}

export function clientErrorProblem(error: ClientError, requestTimeoutMs: number): ProblemError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return kitErrors.KIT_REQUEST_TIMEOUT(
        `the request (headers and body) did not arrive within ${requestTimeoutMs} ms`,
      );
    case 'HPE_HEADER_OVERFLOW':
      return kitErrors.KIT_HEADERS_TOO_LARGE(
        'the request line and headers are larger than the server accepts',
      );
    default:
      return kitErrors.KIT_MALFORMED_REQUEST(
        `the request is not valid HTTP/1.1 (${error.reason ?? error.code ?? 'parse error'})`,
      );
  }
}

// Node's own field: the response currently being written on a connection (pipelined ones queue).
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/** Runs `then` once every response the connection already owes has been sent. */
function afterPendingResponses(socket: HttpSocket, then: () => void): void {
  const current = socket._httpMessage;
  if (current === null || current === undefined || socket.destroyed) return then();
  // By 'close', Node has detached this response and attached the next pipelined one, if any.
  current.once('close', () => afterPendingResponses(socket, then));
}

const answered = new WeakSet<Socket>();

export function createClientErrorHandler(
  logger: Logger,
  requestTimeoutMs: number,
): (error: ClientError, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection has nobody to answer; an errored parser reports every later packet again.
    if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
    answered.add(socket);
    const problem = clientErrorProblem(error, requestTimeoutMs);
    logger.debug({ code: problem.code, err: error }, 'client error');
    const http = socket as HttpSocket;
    const send = () => {
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      socket.once('finish', () => socket.destroy());
      socket.end(rawProblemResponse(problem));
    };
    const inFlight = http._httpMessage;
    if (problem.status === 408) {
      // The late request is the one in flight: it gets the 408, unless its answer has started.
      if (inFlight?.headersSent === true) socket.destroy();
      else send();
      return;
    }
    // Garbage after a valid request: that request was dispatched and may have changed state, so
    // it gets its own answer first, then the 400 for the garbage.
    afterPendingResponses(http, send);
  };
}

/** fastify's `frameworkErrors`: a path that is not valid percent-encoding, and the like. */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const problem =
    error.code === 'FST_ERR_BAD_URL'
      ? kitErrors.KIT_MALFORMED_REQUEST('the request path is not valid percent-encoding')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? kitErrors.KIT_URI_TOO_LONG('a path parameter is longer than the server accepts')
        : kitErrors.KIT_INTERNAL(`an unexpected error occurred (request id ${request.id})`);
  void sendProblem(reply, problem);
}
