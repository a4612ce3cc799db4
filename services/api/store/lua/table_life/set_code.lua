-- A seat's rejoin code (its digest and the token's that asked) set, replacing the seat's previous one.
-- KEYS: codes (hash: seat -> digests), game   ARGV: ttl (s), seat, the stored digests

redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
with_the_game(KEYS[1], KEYS[2], ARGV[1])
