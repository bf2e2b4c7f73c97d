/**
 * Bearer authentication for routes that declare `config: { auth: { scope } }`; other routes are
 * public. Runs in onRequest, before body parsing and before the rate limiter keys on the caller.
 */
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../auth.ts';
import { ProblemError, kitErrors } from '../errors.ts';

// RFC 6750 §3: a 401 tells the client which scheme to use.
const challenge = { 'WWW-Authenticate': 'Bearer' };

function withChallenge(problem: ProblemError): ProblemError {
  return new ProblemError({
    ...problem,
    headers: { ...problem.headers, ...challenge },
    cause: problem.cause,
  });
}

export function installAuthHook(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request) => {
    const auth = request.routeOptions.config.auth;
    if (auth === undefined) return;
    const match = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
    if (match?.[1] === undefined) {
      throw kitErrors.KIT_UNAUTHORIZED(
        'missing bearer token in the Authorization header',
        undefined,
        challenge,
      );
    }
    let principal;
    try {
      principal = await authenticator.verify(match[1]);
    } catch (error) {
      throw error instanceof ProblemError ? withChallenge(error) : error;
    }
    if (!principal.scopes.has(auth.scope)) {
      throw kitErrors.KIT_FORBIDDEN(`this operation needs the "${auth.scope}" scope`, {
        required_scope: auth.scope,
      });
    }
    request.principal = principal;
  });
}
