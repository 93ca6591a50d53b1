-- KEYS: running, parked. ARGV: job id to free (or ''), limit, parked member to add (or ''), parked ttl ms.
-- Frees a slot and/or parks a job, then, while a slot is free, hands it to the longest-parked job:
-- returns that job's member for the caller to wake, or false.
if ARGV[1] ~= '' then redis.call('ZREM', KEYS[1], ARGV[1]) end
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[2], 'NX', now, ARGV[3])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  local next = redis.call('ZPOPMIN', KEYS[2])
  if next[1] then return next[1] end
end
return false
