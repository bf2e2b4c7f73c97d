/**
 * Bearer authentication for routes that declare `config: { auth: { scope } }`; other routes are
 * public. Runs in onRequest, before body parsing and before the rate limiter keys on the caller.
 */
import type { FastifyInstance } from 'fastify';
import type { Authenticator, Principal } from '../auth.ts';
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
  // Callback style, so that a token verified recently authenticates without a promise round trip.
  app.addHook('onRequest', (request, _reply, done) => {
    const auth = request.routeOptions.config.auth;
    if (auth === undefined) return done();
    const match = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
    const token = match?.[1];
    if (token === undefined) {
      return done(
        kitErrors.KIT_UNAUTHORIZED('missing bearer token in the Authorization header', undefined, challenge),
      );
    }
    const admit = (principal: Principal): void => {
      if (!principal.scopes.has(auth.scope)) {
        return done(
          kitErrors.KIT_FORBIDDEN(`this operation needs the "${auth.scope}" scope`, {
            required_scope: auth.scope,
          }),
        );
      }
      request.principal = principal;
      done();
    };
    const known = authenticator.known?.(token);
    if (known !== undefined) return admit(known);
    authenticator.verify(token).then(admit, (error: unknown) => {
      done(error instanceof ProblemError ? withChallenge(error) : (error as Error));
    });
  });
}
