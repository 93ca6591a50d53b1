-- KEYS: running, parked. ARGV: holder to free (or ''), limit, member to park (or ''), parked ttl ms, lease ms.
-- Frees a slot and/or parks a member, then, when a slot is free, reserves it for the longest-parked
-- member (held under the member's name for a lease, until its job takes it) and returns that member
-- for the caller to wake, or false.
if ARGV[1] ~= '' then redis.call('ZREM', KEYS[1], ARGV[1]) end
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[2], 'NX', now, ARGV[3])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  local next = redis.call('ZPOPMIN', KEYS[2])
  if next[1] then
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[5]), next[1])
    redis.call('PEXPIRE', KEYS[1], ARGV[5])
    return next[1]
  end
end
return false
