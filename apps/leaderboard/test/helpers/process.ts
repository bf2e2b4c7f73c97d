import { launchTessera, type LaunchedProcess } from '@tessera/testkit';

/** The leaderboard `api` role as its own process (`tessera run leaderboard api`) on 127.0.0.1. */
export function startApiProcess(env: Record<string, string>): Promise<LaunchedProcess> {
  return launchTessera(['run', 'leaderboard', 'api'], { env });
}

export { waitForExit } from '@tessera/testkit';
