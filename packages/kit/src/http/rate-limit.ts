/**
 * Per-route rate limits (`config: { rateLimit: { max, timeWindow } }`), keyed by the caller's
 * identity when authenticated (so users behind one NAT do not share a budget) or by IP.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { kitErrors } from '../errors.ts';

// The plugin's names and ours (the platform's documented API): reset becomes a UNIX timestamp
// because clients compare it to their clock, while the plugin sends seconds-until.
const renamed = [
  ['x-ratelimit-limit', 'X-Rate-Limit-Limit'],
  ['x-ratelimit-remaining', 'X-Rate-Limit-Remaining'],
] as const;

/** `redis`: an ioredis client, so that every process of a service shares the counters. */
export async function installRateLimit(app: FastifyInstance, redis?: unknown): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    redis,
    // A store outage (the shared Redis down) must not fail every request: limits fail open.
    skipOnError: true,
    // Route-level onRequest hooks run after the app-level auth hook, so the principal is known.
    hook: 'onRequest',
    keyGenerator: (request) =>
      request.principal === undefined ? `ip:${request.ip}` : `sub:${request.principal.sub}`,
    errorResponseBuilder: (_request, context) =>
      kitErrors.KIT_RATE_LIMITED(
        `rate limit of ${context.max} requests exceeded; retry in ${context.after}`,
        {
          limit: context.max,
        },
      ),
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    const reset = reply.getHeader('x-ratelimit-reset');
    if (reset === undefined) return payload;
    for (const [from, to] of renamed) {
      const value = reply.getHeader(from);
      reply.removeHeader(from);
      if (value !== undefined) reply.header(to, value);
    }
    reply.removeHeader('x-ratelimit-reset');
    reply.header('X-Rate-Limit-Reset', Math.floor(Date.now() / 1000) + Number(reset));
    return payload;
  });
}
