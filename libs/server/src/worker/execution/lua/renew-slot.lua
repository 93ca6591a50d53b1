-- KEYS: running. ARGV: job id, lease ms. Keeps a held slot alive.
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
