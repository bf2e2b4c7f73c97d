/**
 * The development sign-in: POST /signin/token mints a bearer token from the platform's own secret
 * for the subject and scopes chosen on the /signin/ page. It exists only when the platform signs
 * its own tokens; with AUTH_JWKS_URL set the identity provider signs people in and the route is
 * absent (404), so a deployment cannot be entered by asking it for a token.
 */
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

export function installSignIn(
  app: FastifyInstance,
  { platform, secret }: { platform: PlatformConfig; secret: string | undefined },
): void {
  if (secret === undefined || platform.AUTH_JWKS_URL !== undefined) return;
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
