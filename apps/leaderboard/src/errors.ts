import { defineErrors } from '@tessera/kit';

/** Every error the leaderboard itself answers with; docs/leaderboard.md#errors documents them. */
export const leaderboardErrors = defineErrors({
  LB_USER_NOT_RANKED: { status: 404, title: 'User not ranked' },
  LB_PROFILE_NOT_FOUND: { status: 404, title: 'Profile not found' },
  LB_MATCH_ID_CONFLICT: { status: 409, title: 'Match id already used' },
  LB_SCORE_RANGE: { status: 422, title: 'Score out of range' },
  LB_STORE_UNAVAILABLE: { status: 503, title: 'Store unavailable' },
  LB_PLAYER_LIMIT: { status: 507, title: 'Player limit reached' },
});
