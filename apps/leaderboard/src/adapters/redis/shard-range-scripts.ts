/**
 * Lua scripts run on the range shards of the sharded ranking (see sharded-ranking-store.ts and
 * docs/architecture.md, "Past one Redis"). Keys of a period share the hash tag `{<period>}`:
 * - `rank`: the sorted set of the entries in this shard's range (and, for a moment, out of it);
 * - `ctl`: a hash with `epoch`, bumped by every step of a move, and `floor`, the fence floor (µs):
 *   a write carrying a token below it is refused like a fenced one (see RANGE_PRUNE);
 * - `steps`: the last STEPS_KEPT steps here, newest first, each as the highest score of an entry
 *   it added, removed or unmarked (`-inf` for none): a read asks whether a step since its first
 *   look touched an entry it counts (RANGE_LOOK). A step is a step of a move, or a write that gave
 *   players their first entry here (*joined*, stored as `-2 - score`: below every threshold an
 *   older RANGE_LOOK compares with, so processes of the previous version, which knew no joined
 *   steps, read the list as before during a rolling upgrade). A joined step counts for pages
 *   only, which are positioned by the shards' sizes, and only above the page's last entry (a
 *   player joining below it leaves the page right as of the instant before); not for ranks (a
 *   player joining is no player counted twice or missed, whenever the count runs);
 * - `moving`: the moves in flight into this shard, user → deadline (ms, this server's clock): an
 *   entry that may also be on another shard. Past its deadline the move is taken over (a scrub);
 * - `fence`: user → the highest lease token that wrote the user here. A write carrying a lower
 *   token comes from a holder that stalled past its lease: it is refused (and changes nothing).
 *   Fields below the floor are pruned (RANGE_PRUNE): the floor refuses what they would have.
 *
 * The write scripts take KEYS rank, ctl, moving, fence, steps and reply the users they refused.
 */

/** Steps of moves a range shard remembers: a read whose looks are further apart is retried. */
export const STEPS_KEPT = 256;

/**
 * `push_step(ctl_key, steps_key, top, joined)`: records a step here: `epoch` bumped, `top` (the
 * highest score it touched, nil for none) pushed onto `steps`, marked when the step only gave
 * players their first entry. Also run by HOME_APPLY (shard-scripts.ts).
 */
export const PUSH_STEP = `
local function push_step(ctl_key, steps_key, top, joined)
  redis.call('HINCRBY', ctl_key, 'epoch', 1)
  local step = '-inf'
  if top and joined then step = string.format('%.17g', -2 - top) elseif top then step = string.format('%.17g', top) end
  redis.call('LPUSH', steps_key, step)
  redis.call('LTRIM', steps_key, 0, ${STEPS_KEPT - 1})
end
`;

/**
 * `fenced(user, token)`: true when a newer token already wrote `user` here, or the token is below
 * the floor (its field may be pruned); then the write is refused.
 */
const FENCE = `${PUSH_STEP}
local rank_key, ctl_key, moving_key, fence_key, steps_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local refused = {}
local step_top
local function touched(score)
  if score and (step_top == nil or tonumber(score) > step_top) then step_top = tonumber(score) end
end
local function step(joined)
  push_step(ctl_key, steps_key, step_top, joined)
end
local floor = tonumber(redis.call('HGET', ctl_key, 'floor') or '0')
local function fenced(user, token)
  local mine = tonumber(token)
  if mine < floor or tonumber(redis.call('HGET', fence_key, user) or '0') > mine then
    refused[#refused + 1] = user
    return true
  end
  redis.call('HSET', fence_key, user, token)
  return false
end
`;

/**
 * ARGV: user, encoded, token per entry. Writes entries that stay on this shard; a player's first
 * entry here is a step (a page counted by sizes before it would be cut short of its last entry).
 */
export const RANGE_PUT = `${FENCE}
for i = 1, #ARGV, 3 do
  if not fenced(ARGV[i], ARGV[i + 2]) and redis.call('ZADD', rank_key, ARGV[i + 1], ARGV[i]) == 1 then
    touched(ARGV[i + 1])
  end
end
if step_top then step(true) end
return refused
`;

/**
 * ARGV: move ms, then user, encoded, token per entry. The first step of a move: the entry added
 * here under a `moving` record (until now + move ms), which readers see and wait on.
 */
export const RANGE_MOVE_IN = `${FENCE}
local now = redis.call('TIME')
local deadline = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV, 3 do
  if not fenced(ARGV[i], ARGV[i + 2]) then
    redis.call('ZADD', rank_key, ARGV[i + 1], ARGV[i])
    redis.call('ZADD', moving_key, deadline, ARGV[i])
    touched(ARGV[i + 1])
  end
end
step()
return refused
`;

/**
 * ARGV: user, token per entry. The second step: the entry removed from a shard it is leaving,
 * with any move record of it here (a scrub takes over moves left unfinished).
 */
export const RANGE_MOVE_OUT = `${FENCE}
for i = 1, #ARGV, 2 do
  if not fenced(ARGV[i], ARGV[i + 1]) then
    touched(redis.call('ZSCORE', rank_key, ARGV[i]))
    redis.call('ZREM', rank_key, ARGV[i])
    redis.call('ZREM', moving_key, ARGV[i])
  end
end
step()
return refused
`;

/**
 * ARGV: user, token per entry. The last step: the move records cleared, each only if no newer
 * token wrote the user here since (that writer's own move then owns the record).
 */
export const RANGE_MOVE_DONE = `${FENCE}
for i = 1, #ARGV, 2 do
  if redis.call('HGET', fence_key, ARGV[i]) == ARGV[i + 1] then
    redis.call('ZREM', moving_key, ARGV[i])
    touched(redis.call('ZSCORE', rank_key, ARGV[i]))
  end
end
step()
return refused
`;

/**
 * KEYS: ctl, fence. ARGV: cursor, horizon (µs), slice. One slice of a pass over `fence`: the
 * first (cursor '0') raises the floor to this server's clock minus the horizon, or replies
 * {'0', 0} when that would raise it by less than a quarter of the horizon (a pass then is mostly
 * wasted, and every process runs this). Every slice then deletes the fields below the stored
 * floor, in the same script: no pruned user ever accepts a token its field would have refused.
 * Reply: {next cursor ('0': done), fields deleted}.
 */
export const RANGE_PRUNE = `
local ctl_key, fence_key = KEYS[1], KEYS[2]
local floor = tonumber(redis.call('HGET', ctl_key, 'floor') or '0')
if ARGV[1] == '0' then
  local now = redis.call('TIME')
  local horizon = tonumber(ARGV[2])
  local target = tonumber(now[1]) * 1000000 + tonumber(now[2]) - horizon
  if target - floor < horizon / 4 then return { '0', 0 } end
  floor = target
  redis.call('HSET', ctl_key, 'floor', string.format('%.0f', floor))
end
local scan = redis.call('HSCAN', fence_key, ARGV[1], 'COUNT', ARGV[3])
local fields, pruned = scan[2], 0
for i = 1, #fields, 2 do
  if tonumber(fields[i + 1]) < floor then
    redis.call('HDEL', fence_key, fields[i])
    pruned = pruned + 1
  end
end
return { scan[1], pruned }
`;

/** Move records past their deadline that a look reports (each is taken over, a few at a time). */
export const LAPSED_MOVES_PER_LOOK = 16;

/**
 * KEYS: rank, ctl, moving, steps. ARGV: above (exclusive encoded bound, or '+inf' for none), user
 * ('' for none), the epoch of the read's first look here ('' for none), a score, and a score for
 * joined steps ('' when they do not count: a rank; a page's last entry - 1). Reply: epoch, moves in flight, the highest score of an entry
 * in flight into this shard (a string, '' for none), count, count of entries above, user's encoded
 * or false, first member, first encoded, last member, last encoded, 1 when a step since that epoch
 * (of a move, or joined if they count) touched an entry above the score (or the steps kept do not
 * reach back that far) else 0, then the users whose move is past its
 * deadline. One atomic look at a range shard. A read can count a player wrong only through an
 * entry it counts, in flight or moved between its looks, so moves below what it counts do not
 * concern it.
 */
export const RANGE_LOOK = `
local epoch = redis.call('HGET', KEYS[2], 'epoch')
local moving = redis.call('ZCARD', KEYS[3])
local moving_top, top = '', nil
if moving > 0 then
  for _, user in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
    local score = redis.call('ZSCORE', KEYS[1], user)
    if score and (top == nil or tonumber(score) > top) then
      top = tonumber(score)
      moving_top = score
    end
  end
end
local above = 0
if ARGV[1] ~= '+inf' then above = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[1], '+inf') end
local mine = false
if ARGV[2] ~= '' then mine = redis.call('ZSCORE', KEYS[1], ARGV[2]) or false end
local first = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local last = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local changed = 0
if ARGV[3] ~= '' then
  local since = tonumber(epoch or '0') - tonumber(ARGV[3])
  if since < 0 or since > ${STEPS_KEPT} then
    changed = 1
  elseif since > 0 then
    local threshold = tonumber(ARGV[4])
    local joined_threshold = ARGV[5] ~= '' and tonumber(ARGV[5]) or nil
    for _, step in ipairs(redis.call('LRANGE', KEYS[4], 0, since - 1)) do
      if step ~= '-inf' then
        local score, bound = tonumber(step), threshold
        -- Scores are never negative: below -1 is a joined step (see PUSH_STEP).
        if score < -1 then score, bound = -2 - score, joined_threshold end
        if bound and score > bound then
          changed = 1
          break
        end
      end
    end
  end
end
local out = { epoch or '0', moving, moving_top, redis.call('ZCARD', KEYS[1]), above, mine,
  first[1] or '', first[2] or '', last[1] or '', last[2] or '', changed }
if moving > 0 then
  local now = redis.call('TIME')
  local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
  local lapsed = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. now_ms, 'LIMIT', 0, ${LAPSED_MOVES_PER_LOOK})
  for _, user in ipairs(lapsed) do out[#out + 1] = user end
end
return out
`;

/**
 * KEYS: rank. ARGV: encoded, user. Reply: {entries with a higher score, the user's position or
 * false, the members with an equal score when the user is not here}. Where the user is, its
 * position counts what ranks above it; elsewhere the caller compares the tied members bytewise
 * (Lua compares strings by locale): ties straddle shards only while a player is out of its range.
 */
export const RANGE_AHEAD = `
local above = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[1], '+inf')
local position = redis.call('ZREVRANK', KEYS[1], ARGV[2])
if position then return { above, position, {} } end
return { above, false, redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1]) }
`;
