/**
 * Bearer JWT authentication: HS256 with a shared secret (development, embedded mode) or
 * RS256/ES256 with keys from a JWKS URL (an identity provider in production).
 */
import { createSecretKey } from 'node:crypto';
import { SignJWT, createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import type { JWTHeaderParameters, JWTPayload, FlattenedJWSInput } from 'jose';
import { cachingAuthenticator } from './auth-cache.ts';
import { ConfigError } from './config.ts';
import { ProblemError, kitErrors } from './errors.ts';

export interface Principal {
  readonly sub: string;
  readonly scopes: ReadonlySet<string>;
  /** The token's `exp` (epoch seconds), when it has one. */
  readonly expiresAt?: number;
}

export interface Authenticator {
  /** Rejects with a KIT_UNAUTHORIZED ProblemError whose detail says what is wrong. */
  verify(token: string): Promise<Principal>;
  /** The principal of a token verified recently, without waiting; undefined when not known. */
  known?(token: string): Principal | undefined;
}

export interface AuthenticatorOptions {
  secret?: string;
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** Verified tokens remembered (default 10,000; 0 turns the cache off). See auth-cache.ts. */
  cacheSize?: number;
}

const asymmetric = ['RS256', 'ES256'];
const thirtyDays = 30 * 24 * 60 * 60;

// `scope` is the OAuth 2.0 (RFC 8693) spelling; Azure AD and others send an `scp` array instead.
function scopesOf(payload: JWTPayload): Set<string> {
  const words = (v: unknown): string[] =>
    typeof v === 'string' ? v.split(' ') : Array.isArray(v) ? v.filter((s) => typeof s === 'string') : [];
  return new Set([...words(payload['scope']), ...words(payload['scp'])].filter((s) => s !== ''));
}

function describeFailure(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'token has expired';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'token signature is invalid';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return `token claim "${error.claim}" is invalid (${error.reason})`;
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'token algorithm is not accepted';
  if (error instanceof joseErrors.JWKSNoMatchingKey) return 'no signing key matches the token';
  if (error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid) {
    return 'token is malformed';
  }
  if (error instanceof joseErrors.JOSEError) return `token could not be verified (${error.code})`;
  // Anything else is the JWKS endpoint failing (network, bad JSON): not the client's fault, but
  // the credential is still unverified.
  return 'token could not be verified: signing keys are unavailable';
}

export function createAuthenticator(opts: AuthenticatorOptions): Authenticator {
  if (opts.secret === undefined && opts.jwksUrl === undefined) {
    throw new ConfigError('authentication needs AUTH_JWT_SECRET or AUTH_JWKS_URL');
  }
  // A KeyObject made once, rather than raw bytes that jose would import again on every call.
  const secret = opts.secret === undefined ? undefined : createSecretKey(Buffer.from(opts.secret, 'utf8'));
  const jwks = opts.jwksUrl === undefined ? undefined : createRemoteJWKSet(new URL(opts.jwksUrl));
  const algorithms = [...(secret ? ['HS256'] : []), ...(jwks ? asymmetric : [])];

  // With both configured the token's own header picks the key; `algorithms` still restricts it,
  // so an HS256 token can never be checked against a public key (algorithm confusion).
  const keyFor = async (header: JWTHeaderParameters, token: FlattenedJWSInput) => {
    if (header.alg === 'HS256' && secret) return secret;
    if (jwks) return jwks(header, token);
    throw new joseErrors.JOSEAlgNotAllowed('unexpected "alg" (Algorithm) Header Parameter value');
  };

  const verifier: Authenticator = {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, keyFor, {
          algorithms,
          issuer: opts.issuer,
          audience: opts.audience,
        });
        if (typeof payload.sub !== 'string' || payload.sub === '') {
          throw kitErrors.KIT_UNAUTHORIZED('token has no "sub" claim');
        }
        return { sub: payload.sub, scopes: scopesOf(payload), expiresAt: payload.exp };
      } catch (error) {
        if (error instanceof ProblemError) throw error;
        throw kitErrors.KIT_UNAUTHORIZED(describeFailure(error));
      }
    },
  };
  const cacheSize = opts.cacheSize ?? 10_000;
  return cacheSize === 0
    ? verifier
    : cachingAuthenticator(verifier, { maxEntries: cacheSize, maxAgeMs: 60_000 });
}

export interface MintTokenOptions {
  secret: string;
  sub: string;
  scopes: readonly string[];
  /** Default 30 days: development tokens should outlive a working week. */
  ttlSeconds?: number;
  issuer?: string;
  audience?: string;
}

/** Mints an HS256 token (`tessera token`, tests). */
export async function mintToken(opts: MintTokenOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT({ scope: opts.scopes.join(' ') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(opts.sub)
    .setIssuedAt(now)
    .setExpirationTime(now + (opts.ttlSeconds ?? thirtyDays));
  if (opts.issuer !== undefined) jwt = jwt.setIssuer(opts.issuer);
  if (opts.audience !== undefined) jwt = jwt.setAudience(opts.audience);
  return jwt.sign(new TextEncoder().encode(opts.secret));
}
