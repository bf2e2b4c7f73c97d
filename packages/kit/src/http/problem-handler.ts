/**
 * Every error leaves as `application/problem+json` with the kit's `{title, detail, status, code}`.
 * Client errors say what is wrong; server errors say nothing beyond the request id, and the real
 * error goes to the log.
 */
import { STATUS_CODES } from 'node:http';
import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, kitErrors, problemBody } from '../errors.ts';
import { trackAllowedMethods, type AllowedMethods } from './allowed-methods.ts';
import { validationProblem } from './validation.ts';

type KitCode = keyof typeof kitErrors.table;

// The first code listed for a status is its generic one (KIT_VALIDATION for 400).
const kitCodeByStatus = new Map<number, KitCode>();
for (const [code, spec] of Object.entries(kitErrors.table)) {
  if (!kitCodeByStatus.has(spec.status)) kitCodeByStatus.set(spec.status, code as KitCode);
}

type ErrorLike = Partial<FastifyError> & {
  validation?: ErrorObject[];
  validationContext?: string;
};

export function toProblem(error: unknown, request: FastifyRequest): ProblemError {
  if (error instanceof ProblemError) return error;
  const e: ErrorLike = typeof error === 'object' && error !== null ? error : {};
  if (Array.isArray(e.validation)) return validationProblem(e.validationContext ?? 'request', e.validation);
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return kitErrors.KIT_PAYLOAD_TOO_LARGE(
        `request body is larger than the limit of ${request.routeOptions.bodyLimit} bytes`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return kitErrors.KIT_UNSUPPORTED_MEDIA_TYPE(
        `content type ${JSON.stringify(request.headers['content-type'] ?? '')} is not supported; send application/json`,
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return kitErrors.KIT_VALIDATION('request body is not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return kitErrors.KIT_VALIDATION('request body is empty but the content type is application/json');
  }
  const status = e.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    // Errors from fastify itself or other plugins that carry a client status.
    const code = kitCodeByStatus.get(status);
    const detail = e.message ?? STATUS_CODES[status] ?? 'client error';
    if (code !== undefined) return kitErrors[code](detail);
    return new ProblemError({
      code: typeof e.code === 'string' ? e.code : `HTTP_${status}`,
      status,
      title: STATUS_CODES[status] ?? 'Client error',
      detail,
    });
  }
  return kitErrors.KIT_INTERNAL(`an unexpected error occurred (request id ${request.id})`);
}

/**
 * True when the request announced a body that has not fully arrived. Answering early (401, 403,
 * 404, 415…) and keeping the connection would leave Node reading and discarding that body for as
 * long as the client cares to send it: such an answer closes the connection instead.
 */
function bodyPending(request: FastifyRequest): boolean {
  if (request.raw.complete) return false;
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

export function sendProblem(reply: FastifyReply, problem: ProblemError): FastifyReply {
  if (bodyPending(reply.request)) void reply.header('connection', 'close');
  // A string payload bypasses any response schema a route declared for its success bodies.
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .type('application/problem+json')
    .send(JSON.stringify(problemBody(problem)));
}

/** 405 with `Allow` when the path exists for other methods, else 404. */
function unmatched(request: FastifyRequest, allowed: AllowedMethods): ProblemError {
  const path = request.url.split('?')[0] ?? '';
  const methods = allowed(path);
  if (methods.length > 0) {
    return kitErrors.KIT_METHOD_NOT_ALLOWED(
      `${request.method} is not allowed on ${path}; use ${methods.join(', ')}`,
      undefined,
      {
        Allow: methods.join(', '),
      },
    );
  }
  return kitErrors.KIT_NOT_FOUND(`no route for ${request.method} ${path}`);
}

export function installProblemHandler(app: FastifyInstance): void {
  const allowed = trackAllowedMethods(app);
  app.setErrorHandler((error, request, reply) => {
    // Fastify may fail a request (e.g. a body method without a content type) before routing it.
    const problem = request.is404 ? unmatched(request, allowed) : toProblem(error, request);
    if (problem.status >= 500) {
      request.log.error({ err: error, code: problem.code }, 'request failed');
    } else {
      request.log.debug({ code: problem.code, detail: problem.detail }, 'request rejected');
    }
    return sendProblem(reply, problem);
  });
  app.setNotFoundHandler((request, reply) => sendProblem(reply, unmatched(request, allowed)));
}
