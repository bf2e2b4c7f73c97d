/**
 * Lua scripts run on a player's home instance by the sharded ranking (see sharded-ranking-store.ts
 * and docs/architecture.md, "Past one Redis"); the range shards' scripts are in
 * shard-range-scripts.ts. Keys of a period share the hash tag `{<period>}`:
 * - `score`: hash user → encoded score (score-encoding.ts), the player's authoritative total;
 * - `applied`, `meta`: the seqs applied above the watermark and the watermark, as unsharded;
 * - `lease`: hash user → `<token>:<expiry ms>` while a process holds the right to write the
 *   player's entry (deleted when given back, so an entry past its expiry is a holder that died or
 *   stalled: its taker rewrites the entry from the total, a *scrub*);
 * - `fencing`: the last token handed out here (tokens only grow, see TAKE);
 * - `at`: hash user → the range shard holding the player's entry.
 */
import { SCORE_LIMIT, SEQ_SPAN } from './score-encoding.ts';
import { PUSH_STEP } from './shard-range-scripts.ts';

/**
 * `take(user, lease ms, force)`: the player's lease with a new token, or nil when another process
 * holds it (unless forced); its second value is '1' when the entry must be scrubbed (the lease
 * was forced, or lapsed without being given back). A token is above every token handed out for
 * the period on this instance and at least the server's clock in µs, so it still grows when the
 * instance comes back empty (the range shards keep the tokens they saw).
 */
const TAKE = `
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local now_us = tonumber(now[1]) * 1000000 + tonumber(now[2])
local function next_token(fencing_key)
  local token = math.max(tonumber(redis.call('GET', fencing_key) or '0') + 1, now_us)
  local text = string.format('%.0f', token)
  redis.call('SET', fencing_key, text)
  return text
end
local function take(lease_key, fencing_key, user, lease_ms, force)
  local held = redis.call('HGET', lease_key, user)
  local scrub = force and '1' or '0'
  if held then
    if not force and tonumber(string.match(held, ':(%d+)$')) >= now_ms then return nil end
    scrub = '1'
  end
  local text = next_token(fencing_key)
  redis.call('HSET', lease_key, user, text .. ':' .. string.format('%.0f', now_ms + lease_ms))
  return text, scrub
end
`;

/**
 * `release(score_key, lease_key, at_key, out, from, to, lease_until)`: gives back the leases listed
 * in ARGV[from..to] (user, token, encoded placed, shard each) whose lease still carries the token
 * (a holder fenced off by a newer one changes nothing): records where the entry now is; gives the
 * lease back when the total is still the one placed, else keeps (extends) it and appends user,
 * encoded to `out` for the placer to go round again. Only a placer whose entries are written
 * calls it: a lease given back with a write in flight would leave a stale entry nobody repairs.
 */
const RELEASE = `
local function release(score_key, lease_key, at_key, out, from, to, lease_until)
  for i = from, to, 4 do
    local user, token = ARGV[i], ARGV[i + 1]
    local held = redis.call('HGET', lease_key, user)
    if held and string.match(held, '^(%d+):') == token then
      redis.call('HSET', at_key, user, ARGV[i + 3])
      local current = redis.call('HGET', score_key, user)
      if current == ARGV[i + 2] then
        redis.call('HDEL', lease_key, user)
      else
        redis.call('HSET', lease_key, user, token .. ':' .. string.format('%.0f', lease_until))
        out[#out + 1] = user
        out[#out + 1] = current
      end
    end
  end
end
`;

/**
 * KEYS: score, applied, meta, lease, at, periods, fencing, and this instance's range shard keys
 * rank, fence, ctl, steps. ARGV: earliest, period, answer, advance, highest, lease ms, bounds (comma-separated,
 * as the caller will place by), this instance's shard number, the count of leases to give back
 * and user, token, encoded placed, shard for each, then seq, user, points per win.
 *
 * Applies the wins that are new (above the watermark, not in `applied`) to the totals, takes the
 * lease of each player changed whose lease is free or lapsed, then gives back the leases listed
 * (as HOME_RELEASE: their entries are written; those whose totals moved on are kept for the caller
 * to place again), and replies {the last win's player's encoded score or false, {user, encoded for
 * each lease kept}, then user, encoded, shard-or-'', token, scrub for each lease taken}. The wins
 * go first so that an error (LB_SCORE_RANGE) leaves the leases listed as they were.
 * `highest` is the last seq of the whole batch (this instance may get none of its wins), so every
 * home moves its watermark. A player new to the period gets its `at` now, before its entry is
 * written: a placer dying in between leaves `at` naming the shard the entry may be on.
 *
 * A player whose entry is here and stays here (its home is its range shard, the lease is free)
 * has it written in this script, under a new token and without a lease: atomic on one instance,
 * it needs neither, and saves the placement's two round trips. A first entry written so is a step
 * of the range shard (PUSH_STEP, joined), as in RANGE_PUT.
 */
export const HOME_APPLY = `${TAKE}${RELEASE}${PUSH_STEP}
local SPAN = ${SEQ_SPAN}
local SCORE_LIMIT = ${SCORE_LIMIT}
local EARLIEST = ARGV[1] == '1'
local score_key, applied_key, meta_key, lease_key, at_key, periods_key, fencing_key, rank_key, fence_key =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9]
local first_top
local self = tonumber(ARGV[8])
local watermark = tonumber(redis.call('HGET', meta_key, 'watermark') or '0')
local lease_ms = tonumber(ARGV[6])
local bounds = {}
for bound in string.gmatch(ARGV[7], '[^,]+') do bounds[#bounds + 1] = tonumber(bound) end
local function range_shard(encoded)
  for i = 1, #bounds do
    if encoded >= bounds[i] then return i - 1 end
  end
  return #bounds
end
local taken, order, out = {}, {}, { false, {} }
local last_user
local releases_end = 9 + tonumber(ARGV[9]) * 4
for i = releases_end + 1, #ARGV, 3 do
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
      local shard = range_shard(encoded)
      if not taken[user] and shard == self and tonumber(redis.call('HGET', at_key, user)) == self
        and redis.call('HEXISTS', lease_key, user) == 0 then
        local token = next_token(fencing_key)
        if redis.call('ZADD', rank_key, string.format('%.17g', encoded), user) == 1
          and (first_top == nil or encoded > first_top) then first_top = encoded end
        redis.call('HSET', fence_key, user, token)
      elseif not taken[user] then
        local token, scrub = take(lease_key, fencing_key, user, lease_ms, false)
        if token then
          taken[user] = { token, scrub }
          order[#order + 1] = user
        end
      end
    end
    redis.call('ZADD', applied_key, seq, ARGV[i])
  end
end
if first_top then push_step(KEYS[10], KEYS[11], first_top, true) end
redis.call('SADD', periods_key, ARGV[2])
local highest = tonumber(ARGV[5])
if ARGV[4] == '1' and highest > watermark then
  redis.call('HSET', meta_key, 'watermark', highest)
  redis.call('ZREMRANGEBYSCORE', applied_key, '-inf', highest)
end
release(score_key, lease_key, at_key, out[2], 10, releases_end, now_ms + lease_ms)
if last_user then out[1] = redis.call('HGET', score_key, last_user) or false end
for _, user in ipairs(order) do
  local lease = taken[user]
  out[#out + 1] = user
  out[#out + 1] = redis.call('HGET', score_key, user)
  out[#out + 1] = redis.call('HGET', at_key, user) or ''
  out[#out + 1] = lease[1]
  out[#out + 1] = lease[2]
end
return out
`;

/**
 * KEYS: score, lease, at. ARGV: lease ms, then user, token, encoded placed, shard per player.
 * Gives the leases back (RELEASE) and replies user, encoded for each kept, to be placed again.
 */
export const HOME_RELEASE = `${RELEASE}
local now = redis.call('TIME')
local lease_until = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[1])
local out = {}
release(KEYS[1], KEYS[2], KEYS[3], out, 2, #ARGV, lease_until)
return out
`;

/** Replies user, encoded, shard-or-'', token, scrub for a lease taken. */
const REPLY_TAKEN = `
local function reply(out, user, token, scrub)
  out[#out + 1] = user
  out[#out + 1] = redis.call('HGET', KEYS[1], user)
  out[#out + 1] = redis.call('HGET', KEYS[3], user) or ''
  out[#out + 1] = token
  out[#out + 1] = scrub
end
`;

/**
 * KEYS: score, lease, at, fencing. ARGV: lease ms, force ('1': take it even from a live holder,
 * which the token fences off), then users. Takes the leases of the players ranked here (a
 * rebalance moving players it applies no win to, a repair, a reader finishing a stuck move).
 */
export const HOME_LEASE = `${TAKE}${REPLY_TAKEN}
local out = {}
for i = 3, #ARGV do
  local user = ARGV[i]
  if redis.call('HEXISTS', KEYS[1], user) == 1 then
    local token, scrub = take(KEYS[2], KEYS[4], user, tonumber(ARGV[1]), ARGV[2] == '1')
    if token then reply(out, user, token, scrub) end
  end
end
return out
`;

/**
 * KEYS: score, lease, at, fencing. ARGV: lease ms, limit. Takes up to `limit` leases that lapsed
 * without being given back (their holders died or stalled), for their entries to be scrubbed.
 * The lease hash holds only the placements under way, so reading it whole is cheap.
 */
export const HOME_LAPSED = `${TAKE}${REPLY_TAKEN}
local out, found = {}, 0
local leases = redis.call('HGETALL', KEYS[2])
for i = 1, #leases, 2 do
  if found >= tonumber(ARGV[2]) then break end
  if tonumber(string.match(leases[i + 1], ':(%d+)$')) < now_ms and redis.call('HEXISTS', KEYS[1], leases[i]) == 1 then
    local token, scrub = take(KEYS[2], KEYS[4], leases[i], tonumber(ARGV[1]), false)
    if token then
      reply(out, leases[i], token, scrub)
      found = found + 1
    end
  end
end
return out
`;
