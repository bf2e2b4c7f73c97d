/**
 * How fast answers end, the same for the front's answers and node:http's: counted in the
 * request-duration series, a failure turned into the problem the full route would answer.
 */
import { kitErrors, problemBody, ProblemError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { ObserveRequest, PlainAnswer } from './fast-route-types.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';
// fastify's reply.type() adds the charset: the full route's answer, byte for byte.
export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/** Set by the answer's writer itself, over any of the same name among an answer's headers. */
export const OWN_HEADERS: ReadonlySet<string> = new Set(['content-type', 'content-length']);

export class FastOutcomes {
  readonly #logger: Logger;
  #failures = 0;
  /** Where fast answers are counted: the app's request-duration metric, once it exists. */
  observe: ObserveRequest = () => {};

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** A coded problem as it is; any other failure is logged and answered as an internal error. */
  problemOf(error: unknown): ProblemError {
    if (error instanceof ProblemError) return error;
    const id = `fast-${++this.#failures}`;
    this.#logger.error({ err: error, reqId: id, code: 'KIT_INTERNAL' }, 'request failed');
    return kitErrors.KIT_INTERNAL(`an unexpected error occurred (request id ${id})`);
  }

  /** Logged as the full route's problem handler logs it: a server-side failure is an error. */
  logProblem(problem: ProblemError): void {
    if (problem.status >= 500) this.#logger.error({ err: problem, code: problem.code }, 'request failed');
  }

  problemAnswer(problem: ProblemError): PlainAnswer {
    const body = JSON.stringify(problemBody(problem));
    return { status: problem.status, type: PROBLEM_TYPE, body, headers: problem.headers };
  }
}
