-- KEYS: the counters of one login's scopes. ARGV: failures allowed, the window and block in ms.
-- When a scope has no failure left, counts nothing and returns {-1, the longest block in ms}.
-- Else counts one failure in every scope and returns, per scope, its failures and 1 when this one
-- started its block. One script, so failures sent at once are counted one after another.
if longest > 0 then return {-1, longest} end
local counted = {}
for _, key in ipairs(KEYS) do
  local failures = redis.call('INCR', key)
  if failures == 1 or failures == allowed then redis.call('PEXPIRE', key, ARGV[2]) end
  table.insert(counted, failures)
  table.insert(counted, failures == allowed and 1 or 0)
end
return counted
