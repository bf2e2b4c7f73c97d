import { defineErrors } from '@tessera/kit';

/** Every error the leaderboard answers with; see docs/leaderboard.md#errors. */
export const leaderboardErrors = defineErrors({
  LB_USER_NOT_RANKED: { status: 404, title: 'User not ranked' },
  LB_PERIOD_IN_FUTURE: { status: 400, title: 'Period in the future' },
  LB_PROFILE_NOT_FOUND: { status: 404, title: 'Profile not found' },
  LB_POINTS_TOO_HIGH: { status: 400, title: 'Too many points' },
});
