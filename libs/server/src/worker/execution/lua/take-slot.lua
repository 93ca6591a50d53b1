-- KEYS: running, parked. ARGV: job id, limit, lease ms, parked member. 1 when the slot is the job's.
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  redis.call('ZREM', KEYS[2], ARGV[4])
  return 1
end
return 0
