/**
 * Declares in every route's schema the problem+json answers the kit itself can give it, so that
 * the OpenAPI document lists them (and a fuzzer finds no undocumented status): 400 for a route
 * that validates input, 401 and 403 for an authenticated one, 429 for a rate-limited one (and for
 * an authenticated one when failed authentications are limited).
 * Answers a service gives itself (a 404 for an unknown resource) it declares with `problemResponse`.
 */
import type { FastifyInstance } from 'fastify';

export const problemSchema = {
  type: 'object',
  description: 'application/problem+json',
  required: ['title', 'detail', 'status'],
  properties: {
    title: { type: 'string' },
    detail: { type: 'string' },
    status: { type: 'integer' },
    code: { type: 'string' },
  },
  additionalProperties: true,
} as const;

/** A response schema entry for a problem answer, under its own media type. */
export const problemResponse = {
  description: 'A problem (RFC 9457)',
  content: { 'application/problem+json': { schema: problemSchema } },
} as const;

export interface DeclaredLimits {
  /** Routes with `config.rateLimit` can answer 429. */
  rateLimitEnabled: boolean;
  /** Authenticated routes can answer 429 to an address out of failed authentications. */
  authFailuresLimited: boolean;
}

export function declareProblemResponses(app: FastifyInstance, limits: DeclaredLimits): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema;
    if (schema === undefined || schema.hide === true) return;
    const response = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
    const add = (status: number) => {
      response[status] ??= problemResponse;
    };
    if (schema.body !== undefined || schema.querystring !== undefined || schema.params !== undefined)
      add(400);
    if (route.config?.auth !== undefined) {
      add(401);
      add(403);
      if (limits.authFailuresLimited) add(429);
    }
    if (limits.rateLimitEnabled && route.config?.rateLimit !== undefined) add(429);
    // Any request target can be too long (HTTP_MAX_URL_LENGTH) or carry too large headers.
    add(414);
    add(431);
    route.schema = { ...schema, response };
  });
}
