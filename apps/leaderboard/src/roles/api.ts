/**
 * The leaderboard `api` role as its own process: the HTTP API over the embedded stores, with the
 * month archiver running in-process. (Distributed mode, with the archiver as its own role over
 * shared stores, comes with the Redis/JetStream adapters.)
 */
import { serve } from '@tessera/kit';
import { readLeaderboardConfig } from '../config.ts';
import { mountLeaderboard } from '../mount.ts';

const config = readLeaderboardConfig();
await serve({
  name: 'tessera-leaderboard',
  version: '0.1.0',
  description: 'Game leaderboard: monthly rankings of players by wins',
  mount: (app, { platform, logger }) => mountLeaderboard(app, { config, dataDir: platform.DATA_DIR, logger }),
});
