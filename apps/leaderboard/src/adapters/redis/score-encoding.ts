/**
 * How a score is held in a sorted-set score (a double, exact for integers up to 2^53).
 *
 * `shared`: the score itself (ZINCRBY); exact up to 2^53. Equal scores are listed in descending
 * user-id order (Redis' order for ties), which the shared rank makes immaterial.
 *
 * `earliest`: the player who reached a score first ranks higher, so the time — the seq of the win
 * that brought the player to the score — goes into the low bits, inverted so that earlier sorts
 * higher: encoded = score * 2^35 + (2^35 - 1 - seq). 35 bits of seq hold 34 billion wins (over
 * two years at the spec's average 500 wins/s, 159 days at a sustained peak of 2,500/s: the stream
 * sequence never restarts); the 18 bits left hold scores up to 262,143, four times the spec's
 * 16-bit sizing. Past either limit, applying a win fails (LB_SCORE_RANGE) rather than rank
 * wrongly; restarting seqs per period is the way past it.
 */
export const SEQ_BITS = 35;
export const SEQ_SPAN = 2 ** SEQ_BITS;
export const SCORE_LIMIT = 2 ** (53 - SEQ_BITS);
