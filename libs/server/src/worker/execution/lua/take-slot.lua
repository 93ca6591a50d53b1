-- KEYS: running, parked. ARGV: job id, limit, lease ms, parked member. 1 when the slot is the job's:
-- the one it holds, the one a settle reserved for its member as it woke it, or a free one when no
-- other member is parked ahead of it (a newcomer queues behind the parked ones, in order).
local reserved = redis.call('ZREM', KEYS[1], ARGV[4]) == 1
local first = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
local inLine = first == nil or first == ARGV[4]
if reserved or redis.call('ZSCORE', KEYS[1], ARGV[1]) or (inLine and redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2])) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  redis.call('ZREM', KEYS[2], ARGV[4])
  return 1
end
return 0
