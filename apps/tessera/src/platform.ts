import { serve, type PageMount, type RunningService, type Service } from '@tessera/kit';
import { loadServices } from './services.ts';
import { installSignIn, signInOffered } from './signin.ts';
import { VERSION } from './version.ts';

export interface StartOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly handleSignals?: boolean;
  /** The clock (epoch ms) the services use; tests move it. */
  readonly now?: () => number;
}

/**
 * The sign-in page, and the script and style every service's page shares: served by the embedded
 * platform and by every role process (a service's page needs `/common/`; on a cluster the ingress
 * routes them to a role).
 */
const SHARED_PAGES: readonly PageMount[] = [
  { prefix: '/signin/', root: new URL('../web/signin/', import.meta.url) },
  { prefix: '/common/', root: new URL('../web/common/', import.meta.url) },
];

/**
 * The embedded platform: every role of every service in one process on one HTTP port, routed as
 * the ingress routes them, with state in node:sqlite files under DATA_DIR and no external server.
 */
export async function startPlatform(options: StartOptions = {}): Promise<RunningService> {
  const services = await loadServices();
  return serve({
    name: 'tessera',
    version: VERSION,
    description: `Tessera embedded platform: ${services.map((s) => s.name).join(', ')}`,
    env: options.env,
    handleSignals: options.handleSignals,
    now: options.now,
    services: services.map((service) => ({ service })),
    pages: SHARED_PAGES,
    routes: installSignIn,
    banner: (url, { platform, secret }) => [
      `Tessera ${VERSION} is up at ${url} (data in ${platform.DATA_DIR})`,
      secret === undefined
        ? 'Tokens come from your identity provider (AUTH_JWKS_URL is set).'
        : `Get a token: npx tessera token --sub game-server-1 --scope "scores:write scores:read"${platform.DATA_DIR === './data' ? '' : ` --data-dir ${platform.DATA_DIR}`}`,
      `Pages: ${url}/mail/ · ${url}/exchange/ · ${url}/leaderboard/${signInOffered(platform, secret) ? ` (sign in at ${url}/signin/)` : ''}`,
      `Try it: curl -H "Authorization: Bearer $TOKEN" ${url}/v1/scores`,
      `API reference: ${url}/docs (OpenAPI: ${url}/docs/openapi.json)`,
      `Health: ${url}/healthz · readiness: ${url}/readyz · metrics: ${url}/metrics`,
    ],
  });
}

/** One role of one service in its own process (one container per role on Kubernetes). */
export function startRole(
  service: Service,
  role: string,
  options: StartOptions = {},
): Promise<RunningService> {
  return serve({
    name: `tessera-${service.name}-${role}`,
    version: VERSION,
    description: `${service.description} (${role} role)`,
    env: options.env,
    handleSignals: options.handleSignals,
    now: options.now,
    services: [{ service, roles: [role] }],
    // A role that answers the API serves its service's page, and so what that page needs.
    ...(service.roles[role]?.servesApi === true ? { pages: SHARED_PAGES, routes: installSignIn } : {}),
  });
}
