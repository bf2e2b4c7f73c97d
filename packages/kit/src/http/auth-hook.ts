/**
 * Bearer authentication for routes that declare `config: { auth: { scope } }`; other routes are
 * public. Runs in onRequest, before body parsing and before the rate limiter keys on the caller.
 * Every failure (401, 403, an ambiguous header) is counted against the client address; see
 * auth-failures.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../auth.ts';
import { ProblemError, kitErrors } from '../errors.ts';
import type { AuthFailureLimit } from './auth-failures.ts';
import { bearerToken, repeatsAuthorization } from './bearer.ts';

// RFC 6750 §3: a 401 tells the client which scheme to use.
const challenge = { 'WWW-Authenticate': 'Bearer' };

function withChallenge(problem: ProblemError): ProblemError {
  return new ProblemError({
    ...problem,
    headers: { ...problem.headers, ...challenge },
    cause: problem.cause,
  });
}

/** The Sec-WebSocket-Protocol entry that carries a token: `bearer.<token>`. */
const BEARER_PROTOCOL_PREFIX = 'bearer.';

/**
 * A browser cannot set headers on a WebSocket handshake, so a route that opts in
 * (`auth.webSocket`) also takes the token from a `bearer.<token>` subprotocol, on upgrade requests
 * only. Never from the URL: URLs end up in access and proxy logs (the exchange's feed agrees).
 */
function socketToken(request: FastifyRequest): string | undefined {
  if (request.headers.upgrade?.toLowerCase() !== 'websocket') return undefined;
  for (const protocol of (request.headers['sec-websocket-protocol'] ?? '').split(',')) {
    const trimmed = protocol.trim();
    if (trimmed.startsWith(BEARER_PROTOCOL_PREFIX)) return trimmed.slice(BEARER_PROTOCOL_PREFIX.length);
  }
  return undefined;
}

export function installAuthHook(
  app: FastifyInstance,
  authenticator: Authenticator,
  failures: AuthFailureLimit | undefined,
): void {
  app.decorateRequest('principal', undefined);
  // Callback style, so that a token verified recently authenticates without a promise round trip.
  app.addHook('onRequest', (request, _reply, done) => {
    const auth = request.routeOptions.config.auth;
    if (auth === undefined) return done();
    const reject = (problem: ProblemError): void => {
      if (failures === undefined) return done(problem);
      failures.fail(request, problem).then(done, () => done(problem));
    };
    if (repeatsAuthorization(request.raw.rawHeaders)) {
      return reject(
        kitErrors.KIT_MALFORMED_REQUEST('the request has more than one Authorization header', undefined, {
          'WWW-Authenticate': 'Bearer error="invalid_request"',
        }),
      );
    }
    const token =
      bearerToken(request.headers.authorization) ??
      (auth.webSocket === true && request.headers.authorization === undefined
        ? socketToken(request)
        : undefined);
    if (token === undefined) {
      // Anonymous only when nothing at all was presented: a header that is not a bearer token is
      // refused, not read as "no token" (the caller would get less than it asked for, silently).
      if (auth.optional === true && request.headers.authorization === undefined) return done();
      return reject(
        kitErrors.KIT_UNAUTHORIZED('missing bearer token in the Authorization header', undefined, challenge),
      );
    }
    const admit = (principal: Principal): void => {
      if (!principal.scopes.has(auth.scope)) {
        return reject(
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
    const verify = (): void => {
      authenticator.verify(token).then(admit, (error: unknown) => {
        if (error instanceof ProblemError) reject(withChallenge(error));
        else done(error as Error);
      });
    };
    if (failures === undefined) return verify();
    // An address out of budget is refused before its token costs a signature check.
    failures.refuse(request).then((refused) => (refused === undefined ? verify() : done(refused)), verify);
  });
}
