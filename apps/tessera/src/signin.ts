/**
 * The development sign-in: POST /signin/token mints a bearer token from the platform's own secret
 * for the subject and scopes chosen on the /signin/ page. It exists only when the platform signs
 * its own tokens; with AUTH_JWKS_URL set the identity provider signs people in and the route is
 * absent (404), so a deployment cannot be entered by asking it for a token. It is absent too when
 * the platform listens beyond loopback (HOST=0.0.0.0, a LAN address): the route asks nothing of
 * its caller, so there anyone who reaches the port could mint themselves an `admin` token. Only
 * `DEV_SIGNIN=true` offers it there: a development cluster (the chart's values-local.yaml), where
 * the pages are reached through the ingress and nobody else reaches it.
 */
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { mintToken, type PlatformConfig } from '@tessera/kit';

/** Every scope a route of the platform asks for: what the sign-in page offers. */
export const SCOPES = ['scores:write', 'scores:read', 'profiles:write', 'trade', 'admin', 'mail'] as const;

/** Long enough for a working day at the pages; a new sign-in is one click. */
export const SIGNIN_TTL_SECONDS = 8 * 60 * 60;

interface SignInBody {
  sub: string;
  scopes: string[];
}

/** True for an address only this machine can reach: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '::ffff:127.0.0.1';
}

/** Whether the platform offers the development sign-in (see the top of this file). */
export function signInOffered(platform: PlatformConfig, secret: string | undefined): secret is string {
  return (
    secret !== undefined &&
    platform.AUTH_JWKS_URL === undefined &&
    (isLoopbackHost(platform.HOST) || platform.DEV_SIGNIN)
  );
}

export function installSignIn(
  app: FastifyInstance,
  { platform, secret }: { platform: PlatformConfig; secret: string | undefined },
): void {
  if (!signInOffered(platform, secret)) return;
  app.post<{ Body: SignInBody }>(
    '/signin/token',
    {
      schema: {
        // A development convenience of the embedded platform, not part of the services' API.
        hide: true,
        body: {
          type: 'object',
          required: ['sub', 'scopes'],
          additionalProperties: false,
          properties: {
            // The same alphabet as a player id; a mailbox is <sub>@MAIL_DOMAIN.
            sub: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
            scopes: {
              type: 'array',
              minItems: 1,
              uniqueItems: true,
              items: { type: 'string', enum: [...SCOPES] },
            },
          },
        },
      },
    },
    async (request) => {
      const { sub, scopes } = request.body;
      const token = await mintToken({
        secret,
        sub,
        scopes,
        ttlSeconds: SIGNIN_TTL_SECONDS,
        issuer: platform.AUTH_ISSUER,
        audience: platform.AUTH_AUDIENCE,
      });
      return { token, sub, scopes, expires_in: SIGNIN_TTL_SECONDS };
    },
  );
}
