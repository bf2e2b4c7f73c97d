/**
 * Failed authentications are limited per client address (a generous budget: a password-less
 * token API has nothing to guess, but every bad token costs a signature check). The counts live
 * in @fastify/rate-limit's store: in memory by default (bounded LRU), in Redis when the app is
 * given a client, so that every process of a service shares one budget per address.
 *
 * Only the failure path pays for this: a request whose token is known never reaches it.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError, kitErrors } from '../errors.ts';

export interface AuthFailureOptions {
  /** Failures per address and minute before 429; 0 turns the limit off. */
  maxPerMinute: number;
  /** An ioredis client (what @fastify/rate-limit's Redis store takes). */
  redis?: unknown;
}

interface LimitState {
  max: number;
  remaining: number;
  ttlInSeconds: number;
  isExceeded: boolean;
}

export interface AuthFailureLimit {
  /** Counts one failure; resolves to the problem to send (the given one, or a 429). */
  fail(request: FastifyRequest, problem: ProblemError): Promise<ProblemError>;
  /** Resolves to a 429 when the address has no budget left, without counting anything. */
  refuse(request: FastifyRequest): Promise<ProblemError | undefined>;
}

const minute = 60_000;

function limitHeaders(state: LimitState): Record<string, string> {
  return {
    'X-Rate-Limit-Limit': String(state.max),
    'X-Rate-Limit-Remaining': String(state.remaining),
    'X-Rate-Limit-Reset': String(Math.floor(Date.now() / 1000) + state.ttlInSeconds),
  };
}

function tooMany(state: LimitState): ProblemError {
  return kitErrors.KIT_RATE_LIMITED(
    `too many failed authentications from this address; retry in ${state.ttlInSeconds} s`,
    { limit: state.max },
    { ...limitHeaders(state), 'Retry-After': String(state.ttlInSeconds) },
  );
}

export async function installAuthFailureLimit(
  app: FastifyInstance,
  options: AuthFailureOptions,
): Promise<AuthFailureLimit | undefined> {
  if (options.maxPerMinute <= 0) return undefined;
  let check: ((request: FastifyRequest, call?: { increment?: boolean }) => Promise<unknown>) | undefined;
  // A scope of its own: the plugin's onRoute hook must not touch the service's routes here.
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      global: false,
      redis: options.redis,
      nameSpace: 'tessera-auth-failures-',
      // A store outage must not lock everyone out; the answer stays the 401/403.
      skipOnError: true,
    });
    check = scope.createRateLimit({ max: options.maxPerMinute, timeWindow: minute });
  });
  const state = async (request: FastifyRequest, increment: boolean) =>
    (await check?.(request, { increment })) as LimitState;
  return {
    async fail(request, problem) {
      const now = await state(request, true);
      if (now.isExceeded) return tooMany(now);
      return new ProblemError({ ...problem, headers: { ...problem.headers, ...limitHeaders(now) } });
    },
    async refuse(request) {
      const now = await state(request, false);
      return now.isExceeded ? tooMany(now) : undefined;
    },
  };
}
