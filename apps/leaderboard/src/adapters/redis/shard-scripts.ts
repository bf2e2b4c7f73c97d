/**
 * Lua scripts of the sharded ranking (see sharded-ranking-store.ts and docs/architecture.md,
 * "Past one Redis"). Keys of a period share the hash tag `{<period>}`.
 *
 * On a player's home instance:
 * - `score`: hash user → encoded score (score-encoding.ts), the player's authoritative total;
 * - `applied`, `meta`: the seqs applied above the watermark and the watermark, as unsharded;
 * - `lease`: hash user → lease expiry (ms, server clock): who may write the player's entry;
 * - `at`: hash user → the range shard holding the player's entry.
 * On each range shard: `rank`, the sorted set, and `ctl`, a hash with `epoch` (bumped by every
 * step of a move) and `moving` (moves in flight whose entry is on two shards).
 */
import { SCORE_LIMIT, SEQ_SPAN } from './score-encoding.ts';

/**
 * KEYS: score, applied, meta, lease, at, periods. ARGV: earliest, period, answer, advance,
 * highest, lease ms, bounds (comma-separated, as the caller will place by), then seq, user,
 * points per win.
 *
 * Applies the wins that are new (above the watermark, not in `applied`) to the totals, takes the
 * lease of each player changed whose lease is free, and replies {the last win's player's encoded
 * score or false, then user, encoded, shard-or-'' for each lease taken}. `highest` is the last seq
 * of the whole batch (this instance may get none of its wins), so every home moves its watermark.
 * A player new to the period gets its `at` now, before its entry is written: a placer dying in
 * between leaves `at` naming the shard the entry may be on, so the next placement removes it
 * there (a move) instead of writing a second entry elsewhere.
 */
export const HOME_APPLY = `
local SPAN = ${SEQ_SPAN}
local SCORE_LIMIT = ${SCORE_LIMIT}
local EARLIEST = ARGV[1] == '1'
local score_key, applied_key, meta_key, lease_key, at_key, periods_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local watermark = tonumber(redis.call('HGET', meta_key, 'watermark') or '0')
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local lease_until = now_ms + tonumber(ARGV[6])
local bounds = {}
for bound in string.gmatch(ARGV[7], '[^,]+') do bounds[#bounds + 1] = tonumber(bound) end
local function range_shard(encoded)
  for i = 1, #bounds do
    if encoded >= bounds[i] then return i - 1 end
  end
  return #bounds
end
local taken, order = {}, {}
local last_user
for i = 8, #ARGV, 3 do
  local seq, user, points = tonumber(ARGV[i]), ARGV[i + 1], tonumber(ARGV[i + 2])
  last_user = user
  if seq > watermark and not redis.call('ZSCORE', applied_key, ARGV[i]) then
    local old = redis.call('HGET', score_key, user)
    local encoded
    if EARLIEST then
      local total, tie = points, seq
      if old then
        local old_total = math.floor(tonumber(old) / SPAN)
        local old_tie = SPAN - 1 - (tonumber(old) - old_total * SPAN)
        total = old_total + points
        if old_tie > tie then tie = old_tie end
      end
      if total >= SCORE_LIMIT or tie >= SPAN then
        redis.call('ZADD', applied_key, seq, ARGV[i])
        if ARGV[3] == '1' then
          return redis.error_reply('LB_SCORE_RANGE score ' .. total .. ' or seq ' .. tie .. ' beyond the earliest tie-break encoding')
        end
      else
        encoded = total * SPAN + (SPAN - 1 - tie)
      end
    else
      encoded = (old and tonumber(old) or 0) + points
    end
    if encoded then
      redis.call('HSET', score_key, user, string.format('%.17g', encoded))
      if redis.call('HEXISTS', at_key, user) == 0 then redis.call('HSET', at_key, user, range_shard(encoded)) end
      if not taken[user] and tonumber(redis.call('HGET', lease_key, user) or '0') < now_ms then
        redis.call('HSET', lease_key, user, lease_until)
        taken[user] = true
        order[#order + 1] = user
      end
    end
    redis.call('ZADD', applied_key, seq, ARGV[i])
  end
end
redis.call('SADD', periods_key, ARGV[2])
local highest = tonumber(ARGV[5])
if ARGV[4] == '1' and highest > watermark then
  redis.call('HSET', meta_key, 'watermark', highest)
  redis.call('ZREMRANGEBYSCORE', applied_key, '-inf', highest)
end
local out = { last_user and redis.call('HGET', score_key, last_user) or false }
for _, user in ipairs(order) do
  out[#out + 1] = user
  out[#out + 1] = redis.call('HGET', score_key, user)
  out[#out + 1] = redis.call('HGET', at_key, user) or ''
end
return out
`;

/**
 * KEYS: score, lease, at. ARGV: lease ms, then user, encoded placed, shard per player.
 *
 * Records where each player's entry now is; gives the lease back when the total is still the one
 * placed, else keeps (extends) it and replies user, encoded for the placer to go round again.
 */
export const HOME_RELEASE = `
local now = redis.call('TIME')
local lease_until = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[1])
local out = {}
for i = 2, #ARGV, 3 do
  local user = ARGV[i]
  redis.call('HSET', KEYS[3], user, ARGV[i + 2])
  local current = redis.call('HGET', KEYS[1], user)
  if current == ARGV[i + 1] then
    redis.call('HDEL', KEYS[2], user)
  else
    redis.call('HSET', KEYS[2], user, lease_until)
    out[#out + 1] = user
    out[#out + 1] = current
  end
end
return out
`;

/**
 * KEYS: score, lease, at. ARGV: lease ms, then users. Takes the free leases (a rebalance moving
 * players it does not apply wins to) and replies user, encoded, shard for each taken.
 */
export const HOME_LEASE = `
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local out = {}
for i = 2, #ARGV do
  local user = ARGV[i]
  local encoded = redis.call('HGET', KEYS[1], user)
  if encoded and tonumber(redis.call('HGET', KEYS[2], user) or '0') < now_ms then
    redis.call('HSET', KEYS[2], user, now_ms + tonumber(ARGV[1]))
    out[#out + 1] = user
    out[#out + 1] = encoded
    out[#out + 1] = redis.call('HGET', KEYS[3], user) or ''
  end
end
return out
`;

/**
 * KEYS: rank, ctl. ARGV: above (exclusive encoded bound, or '+inf' for none), user ('' for none).
 * Reply: epoch, moving, count, count of entries above, user's encoded or false, first member,
 * first encoded, last member, last encoded. One atomic look at a range shard.
 */
export const SHARD_LOOK = `
local ctl = redis.call('HMGET', KEYS[2], 'epoch', 'moving')
local above = 0
if ARGV[1] ~= '+inf' then above = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[1], '+inf') end
local mine = false
if ARGV[2] ~= '' then mine = redis.call('ZSCORE', KEYS[1], ARGV[2]) or false end
local first = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local last = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return { ctl[1] or '0', ctl[2] or '0', redis.call('ZCARD', KEYS[1]), above, mine,
  first[1] or '', first[2] or '', last[1] or '', last[2] or '' }
`;

/**
 * KEYS: rank. ARGV: encoded, user. Reply: {entries with a higher score, the user's position or
 * false, the members with an equal score when the user is not here}. Where the user is, its
 * position counts what ranks above it; elsewhere the caller compares the tied members bytewise
 * (Lua compares strings by locale): ties straddle shards only while a player is out of its range.
 */
export const SHARD_AHEAD = `
local above = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[1], '+inf')
local position = redis.call('ZREVRANK', KEYS[1], ARGV[2])
if position then return { above, position, {} } end
return { above, false, redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1]) }
`;
