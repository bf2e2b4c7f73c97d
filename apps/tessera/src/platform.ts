import { serve, type RunningService } from '@tessera/kit';
import { mountLeaderboard, readLeaderboardConfig } from '@tessera/leaderboard';

export const VERSION = '0.1.0';

export interface StartOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly handleSignals?: boolean;
  /** The clock (epoch ms) the services use; tests move it. */
  readonly now?: () => number;
}

/**
 * The embedded platform: every service in one process on one HTTP port, routed as the ingress
 * routes them, with state in node:sqlite files under DATA_DIR and no external server.
 */
export async function startPlatform(options: StartOptions = {}): Promise<RunningService> {
  const env = options.env ?? process.env;
  // Read every service's settings before anything starts, so a bad variable stops start-up at once.
  const leaderboard = readLeaderboardConfig(env);
  return serve({
    name: 'tessera',
    version: VERSION,
    description: 'Tessera embedded platform: leaderboard (mail and exchange follow)',
    env,
    handleSignals: options.handleSignals,
    mount: async (app, { platform, logger }) =>
      mountLeaderboard(app, { config: leaderboard, dataDir: platform.DATA_DIR, logger, now: options.now }),
    banner: (url, { platform, secret }) => [
      `Tessera is up at ${url} (data in ${platform.DATA_DIR})`,
      secret === undefined
        ? 'Tokens come from your identity provider (AUTH_JWKS_URL is set).'
        : `Get a token: npx tessera token --sub game-server-1 --scope "scores:write scores:read"${platform.DATA_DIR === './data' ? '' : ` --data-dir ${platform.DATA_DIR}`}`,
      `Try it: curl -H "Authorization: Bearer $TOKEN" ${url}/v1/scores`,
      `API: ${url}/docs/openapi.json · health: ${url}/healthz · metrics: ${url}/metrics`,
    ],
  });
}
