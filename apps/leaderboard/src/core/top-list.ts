/** The spec's top list: the 10 best players of the period (spec/leaderboard.md, Limits). */
export const TOP_LIST_SIZE = 10;
