-- The longest block still to run among KEYS, in ms (0 when none is blocked), for ARGV[1] failures allowed.
local allowed = tonumber(ARGV[1])
local longest = 0
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= allowed then longest = math.max(longest, redis.call('PTTL', key), 1) end
end
