//! The writes, each one Lua script: the condition, the write and its
//! notice happen at once, so no other client sees one without the other.

use std::sync::OnceLock;

use redis::Script;

/// `KEYS[1]` the key, `KEYS[2]` the channel; `ARGV`: the mode (`always`,
/// `absent`, `equals`), the value, the time to live in ms, the expected
/// value (for `equals`), and the key as watchers know it (without the
/// prefix), which is what is published.
const PUT: &str = r"
if ARGV[1] ~= 'always' then
  local current = redis.call('GET', KEYS[1])
  if ARGV[1] == 'absent' and current then return 0 end
  if ARGV[1] == 'equals' and current ~= ARGV[4] then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('PUBLISH', KEYS[2], ARGV[5])
return 1
";

/// `KEYS[1]` the key, `KEYS[2]` the channel; `ARGV[1]` the key as
/// watchers know it.
const DELETE: &str = r"
if redis.call('DEL', KEYS[1]) == 0 then return 0 end
redis.call('PUBLISH', KEYS[2], ARGV[1])
return 1
";

/// `KEYS[1]` the key, `KEYS[2]` the channel; `ARGV`: the member, the time
/// it is kept until and the time now (ms since the Unix epoch, the
/// client's clock), and the key as watchers know it. `GT` keeps a member
/// added again until the later of its times; the key expires with the
/// member kept longest.
const ADD_MEMBER: &str = r"
redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then
  redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', tonumber(last[2])))
end
redis.call('PUBLISH', KEYS[2], ARGV[4])
return 1
";

/// `KEYS[1]` the key; `ARGV[1]` the time now: the members kept past it,
/// the others removed.
const MEMBERS: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
";

/// The put script, hashed once (`EVALSHA`, with the script sent again
/// when a restarted Redis has forgotten it).
pub(crate) fn put() -> &'static Script {
    static SCRIPT: OnceLock<Script> = OnceLock::new();
    SCRIPT.get_or_init(|| Script::new(PUT))
}

/// The delete script.
pub(crate) fn delete() -> &'static Script {
    static SCRIPT: OnceLock<Script> = OnceLock::new();
    SCRIPT.get_or_init(|| Script::new(DELETE))
}

/// The add-member script.
pub(crate) fn add_member() -> &'static Script {
    static SCRIPT: OnceLock<Script> = OnceLock::new();
    SCRIPT.get_or_init(|| Script::new(ADD_MEMBER))
}

/// The members script.
pub(crate) fn members() -> &'static Script {
    static SCRIPT: OnceLock<Script> = OnceLock::new();
    SCRIPT.get_or_init(|| Script::new(MEMBERS))
}
