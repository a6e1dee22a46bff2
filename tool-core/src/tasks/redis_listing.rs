//! The listing a [`RedisTaskStore`](super::RedisTaskStore) keeps: a sorted set per owner and
//! per owner with each filter (`{prefix}listed:o:{owner}`, `…:c:{context}`, `…:s:{state}`,
//! both), all scores 0 and each member `{u64::MAX - updated_us, 20 digits}:{id}`, so that the
//! sets' lexical order is the listing's (the newest first, ties by id, the smaller first) and a page is a
//! `ZRANGEBYLEX` from the cursor, a count a `ZLEXCOUNT`. The hash `{prefix}listed` keeps
//! each task's member and sets, so a newer listing replaces it; `{prefix}listed:expiry`
//! keeps when each task's time to live runs out, so a query first forgets the tasks Redis
//! has dropped. Owners, contexts and states are hex in key names, so none can forge
//! another's key. The scripts touch the sets a task is in without naming them as keys: a
//! listing needs one Redis, not a cluster.

use super::listing::{ListPage, ListPosition, ListQuery, Listing};

/// KEYS: the task, the `listed` hash, the expiries, then the task's sets. ARGV: its id, its
/// member. Lists the task unless it does not exist or what is kept is newer.
pub(super) const INDEX: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local kept = redis.call('HGET', KEYS[2], ARGV[1])
if kept then
  local old = cjson.decode(kept)
  if ARGV[2] > old[1] then return 0 end
  for i = 2, #old do redis.call('ZREM', old[i], old[1]) end
end
local entry = {ARGV[2]}
for i = 4, #KEYS do
  redis.call('ZADD', KEYS[i], 0, ARGV[2])
  entry[#entry + 1] = KEYS[i]
end
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(entry))
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  local now = redis.call('TIME')
  redis.call('ZADD', KEYS[3], now[1] * 1000 + math.floor(now[2] / 1000) + ttl, ARGV[1])
end
return 1
";

/// KEYS: the set the query reads, the `listed` hash, the expiries. ARGV: the lexical range's
/// ends and the most members to read. Forgets the tasks whose time ran out, then answers
/// `{count in the range up to its end, the page}`.
pub(super) const QUERY: &str = r"
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ms, 'LIMIT', 0, 1000)) do
  local kept = redis.call('HGET', KEYS[2], id)
  if kept then
    local old = cjson.decode(kept)
    for i = 2, #old do redis.call('ZREM', old[i], old[1]) end
    redis.call('HDEL', KEYS[2], id)
  end
  redis.call('ZREM', KEYS[3], id)
end
local page = redis.call('ZRANGEBYLEX', KEYS[1], ARGV[1], ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
return {redis.call('ZLEXCOUNT', KEYS[1], '-', ARGV[2]), page}
";

/// The member of the task at `position`.
pub(super) fn member(position: &ListPosition) -> String {
    format!("{:020}:{}", u64::MAX - position.updated_us, position.id)
}

/// The position a member names.
pub(super) fn position(member: &str) -> Option<ListPosition> {
    let (inverted, id) = member.split_once(':')?;
    Some(ListPosition::new(u64::MAX - inverted.parse::<u64>().ok()?, id))
}

/// The `listed` hash and the expiries, under `prefix`.
pub(super) fn bookkeeping(prefix: &str) -> [String; 2] {
    [format!("{prefix}listed"), format!("{prefix}listed:expiry")]
}

/// The set of `owner`'s tasks, narrowed to `context` and `state` when given.
fn set(prefix: &str, owner: Option<&str>, context: Option<&str>, state: Option<&str>) -> String {
    let mut key = format!("{prefix}listed:o:{}", owner.map_or_else(|| "-".to_owned(), hex));
    if let Some(context) = context {
        key.push_str(":c:");
        key.push_str(&hex(context));
    }
    if let Some(state) = state {
        key.push_str(":s:");
        key.push_str(&hex(state));
    }
    key
}

/// The four sets a task of `listing` is in.
pub(super) fn sets(prefix: &str, listing: &Listing) -> [String; 4] {
    let (owner, context, state) =
        (listing.owner.as_deref(), Some(listing.context.as_str()), Some(listing.state.as_str()));
    [
        set(prefix, owner, None, None),
        set(prefix, owner, context, None),
        set(prefix, owner, None, state),
        set(prefix, owner, context, state),
    ]
}

/// The set `query` reads, and its lexical range's ends.
pub(super) fn range(prefix: &str, query: &ListQuery) -> (String, String, String) {
    let key = set(prefix, query.owner.as_deref(), query.context.as_deref(), query.state.as_deref());
    let start = query.after.as_ref().map_or_else(|| "-".to_owned(), |cursor| format!("({}", member(cursor)));
    // A task updated after `after` has a smaller inverted time: every member below its digits.
    let end = query.updated_after_us.map_or_else(|| "+".to_owned(), |after| format!("({:020}", u64::MAX - after));
    (key, start, end)
}

/// The page from what [`QUERY`] answered for at most `limit` tasks (it read one more).
pub(super) fn page(total: u64, members: &[String], limit: usize) -> ListPage {
    let tasks = members.iter().take(limit).filter_map(|member| position(member)).collect();
    ListPage::new(tasks, total, members.len() > limit)
}

fn hex(text: &str) -> String {
    use core::fmt::Write as _;
    text.bytes().fold(String::with_capacity(text.len() * 2), |mut out, byte| {
        let _ = write!(out, "{byte:02x}");
        out
    })
}
