-- KEYS: the counters of one login's scopes. ARGV: failures allowed.
return longest
