/**
 * The ranking's Lua scripts: each operation is one script, so each is one round trip and atomic.
 *
 * Keys of a period share the hash tag `{<period>}`:
 * - `rank`: the sorted set, member = user id, score = the encoded score (see score-encoding.ts);
 * - `applied`: the seqs applied above the watermark (a sorted set, score = member = seq);
 * - `meta`: a hash with `watermark`, the seq up to which EVERY win of the period is applied.
 * and `periods` (a set of the periods with a live ranking) is outside the tag: a cluster would
 * keep it apart (a later step).
 */
import { SCORE_LIMIT, SEQ_SPAN } from './score-encoding.ts';

/** Helpers shared by the scripts. EARLIEST is set by each script from its first argument. */
const PRELUDE = `
local SPAN = ${SEQ_SPAN}
local SCORE_LIMIT = ${SCORE_LIMIT}
local EARLIEST = ARGV[1] == '1'

local function total_of(raw)
  if EARLIEST then return math.floor(tonumber(raw) / SPAN) end
  return tonumber(raw)
end

-- Rank of the first entry of a page: shared ranks are 1 + the players with a strictly higher
-- score; earliest ranks are positions.
local function first_rank(rank_key, raw, position)
  if not EARLIEST then return redis.call('ZCOUNT', rank_key, '(' .. raw, '+inf') + 1 end
  return position + 1
end

-- A page of the ranking from a 0-based position: user, score, rank triples.
local function page(rank_key, from, count)
  local items = redis.call('ZREVRANGE', rank_key, from, from + count - 1, 'WITHSCORES')
  local out = {}
  local previous_raw, previous_rank
  for i = 1, #items, 2 do
    local position = from + (i - 1) / 2
    local raw = items[i + 1]
    local rank
    if i == 1 then
      rank = first_rank(rank_key, raw, position)
    elseif raw == previous_raw and not EARLIEST then
      rank = previous_rank
    else
      rank = position + 1
    end
    out[#out + 1] = items[i]
    out[#out + 1] = total_of(raw)
    out[#out + 1] = rank
    previous_raw, previous_rank = raw, rank
  end
  return out
end

local function standing(rank_key, user)
  local raw = redis.call('ZSCORE', rank_key, user)
  if not raw then return false end
  if EARLIEST then return { total_of(raw), redis.call('ZREVRANK', rank_key, user) + 1 } end
  return { tonumber(raw), first_rank(rank_key, raw, 0) }
end
`;

/**
 * KEYS: rank, applied, meta, periods. ARGV: earliest, period, answer (1: reply the standing of the
 * last win's player), advance (1: the wins are a run of the period's log read from at most the
 * watermark, so the watermark moves to the last seq), then seq, user, points for each win.
 *
 * A win is new when its seq is above the watermark and not in `applied`. That is exact whatever
 * the order wins arrive in, also for one player's wins applied out of order by two api
 * processes — which "the seq of the player's last win" could not tell from a redelivery.
 */
export const APPLY = `${PRELUDE}
local rank_key, applied_key, meta_key, periods_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local watermark = tonumber(redis.call('HGET', meta_key, 'watermark') or '0')
local highest = 0
local last_user
for i = 5, #ARGV, 3 do
  local seq, user, points = tonumber(ARGV[i]), ARGV[i + 1], tonumber(ARGV[i + 2])
  last_user = user
  if seq > highest then highest = seq end
  if seq > watermark and not redis.call('ZSCORE', applied_key, ARGV[i]) then
    if EARLIEST then
      local total, tie = points, seq
      local old = redis.call('ZSCORE', rank_key, user)
      if old then
        local old_total = math.floor(tonumber(old) / SPAN)
        local old_tie = SPAN - 1 - (tonumber(old) - old_total * SPAN)
        total = old_total + points
        if old_tie > tie then tie = old_tie end
      end
      if total >= SCORE_LIMIT or tie >= SPAN then
        -- The win is in the log but cannot be ranked: mark it applied (counted as nothing), so a
        -- catch-up or a rebuild passes over it instead of failing on it for ever.
        redis.call('ZADD', applied_key, seq, ARGV[i])
        if ARGV[3] == '1' then
          return redis.error_reply('LB_SCORE_RANGE score ' .. total .. ' or seq ' .. tie .. ' beyond the earliest tie-break encoding')
        end
      else
        redis.call('ZADD', rank_key, string.format('%.17g', total * SPAN + (SPAN - 1 - tie)), user)
      end
    else
      redis.call('ZINCRBY', rank_key, points, user)
    end
    redis.call('ZADD', applied_key, seq, ARGV[i])
  end
end
redis.call('SADD', periods_key, ARGV[2])
if ARGV[4] == '1' and highest > watermark then
  redis.call('HSET', meta_key, 'watermark', highest)
  redis.call('ZREMRANGEBYSCORE', applied_key, '-inf', highest)
end
if ARGV[3] == '1' then return standing(rank_key, last_user) end
return false
`;

/** KEYS: rank. ARGV: earliest, user. Reply: {score, rank} or nil. */
export const STANDING = `${PRELUDE}
return standing(KEYS[1], ARGV[2])
`;

/** KEYS: rank. ARGV: earliest, offset, limit. Reply: user, score, rank triples. */
export const TOP = `${PRELUDE}
return page(KEYS[1], tonumber(ARGV[2]), tonumber(ARGV[3]))
`;

/** KEYS: rank. ARGV: earliest, user, n. Reply: triples from n above to n below, or nil. */
export const AROUND = `${PRELUDE}
local position = redis.call('ZREVRANK', KEYS[1], ARGV[2])
if not position then return false end
local n = tonumber(ARGV[3])
local from = math.max(0, position - n)
return page(KEYS[1], from, position + n + 1 - from)
`;
