//! [`RedisTaskStore`]: tasks in Redis, shared by every replica of a server.
//!
//! A task is one hash, `{prefix}task:{id}`, expiring with the task's time to live: field
//! `state` (the task as `tasks/get` answers it), `lease` (milliseconds since the epoch),
//! `cancel`, `ended` once the state is terminal, and one `in:{key}` per answer a client gave.
//! Every write after the first goes through a Lua script that writes only to a hash that still
//! exists, so no write brings back an expired task (a plain `HSET` would, without its expiry),
//! and a save only to a task that has not ended, so a terminal state is final. The listing
//! `ListTasks` reads is in sorted sets beside the tasks (`redis_listing.rs`).

use core::time::Duration;
use std::collections::{BTreeMap, HashMap};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::listing::{ListPage, ListQuery, Listing};
use super::redis_listing;
use crate::tasks::store::{StoreError, StoreFuture, TaskRecord, TaskStore};

/// `HSET` on a hash that exists; 1 if it did, 0 if not.
const HSET_IF_EXISTS: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], unpack(ARGV))
  return 1
end
return 0
";

/// `HSET` on a task that exists and has not ended (no `ended` field); 1 if it wrote.
const SAVE_IF_RUNNING: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('HEXISTS', KEYS[1], 'ended') == 0 then
  redis.call('HSET', KEYS[1], unpack(ARGV))
  return 1
end
return 0
";

/// Tasks in Redis (feature `redis`): give every replica of a server the same one, and any of
/// them answers `tasks/get`, `tasks/update` and `tasks/cancel` for a task another runs.
///
/// It holds a [`ConnectionManager`], which reconnects after Redis restarts; while Redis is
/// away, task requests fail with an internal error naming it, tasks keep running, and their
/// replicas save their results once it is back. What Redis keeps across its own restart is
/// its persistence setting's business (with none, tasks in flight are forgotten: `tasks/get`
/// then says the task is unknown, and their tools are stopped).
#[derive(Clone)]
pub struct RedisTaskStore {
    connection: ConnectionManager,
    prefix: String,
    script: redis::Script,
    save: redis::Script,
    index: redis::Script,
    query: redis::Script,
}

impl core::fmt::Debug for RedisTaskStore {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RedisTaskStore").field("prefix", &self.prefix).finish_non_exhaustive()
    }
}

impl RedisTaskStore {
    /// Connects to the Redis at `url` (`redis://127.0.0.1:6379/0`), with timeouts of a few
    /// seconds on each connection attempt and response, so an unreachable Redis is an error
    /// rather than a wait.
    ///
    /// # Errors
    /// When the URL is malformed or Redis cannot be reached.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Ok(RedisTaskStore::from_connection(Self::connection(url).await?))
    }

    /// A connection to the Redis at `url` as [`RedisTaskStore::connect`] makes it, to share
    /// with a [`RedisSessionStore`](crate::mcp::RedisSessionStore).
    ///
    /// # Errors
    /// When the URL is malformed or Redis cannot be reached.
    pub async fn connection(url: &str) -> Result<ConnectionManager, StoreError> {
        let client = redis::Client::open(url).map_err(store_error)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(Duration::from_secs(2)))
            .set_number_of_retries(3)
            .set_max_delay(Duration::from_millis(500));
        ConnectionManager::new_with_config(client, config).await.map_err(store_error)
    }

    /// A store on a connection you configured.
    #[must_use]
    pub fn from_connection(connection: ConnectionManager) -> Self {
        RedisTaskStore {
            connection,
            prefix: "tool-core:".to_owned(),
            script: redis::Script::new(HSET_IF_EXISTS),
            save: redis::Script::new(SAVE_IF_RUNNING),
            index: redis::Script::new(redis_listing::INDEX),
            query: redis::Script::new(redis_listing::QUERY),
        }
    }

    /// Names its keys `{prefix}task:{id}` (`tool-core:` by default), for servers that share
    /// a Redis but not their tasks.
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    fn key(&self, id: &str) -> String {
        format!("{}task:{id}", self.prefix)
    }

    /// Writes `fields` to the task `id` if it exists.
    async fn set_if_exists(&self, id: &str, fields: &[(&str, &str)]) -> Result<bool, StoreError> {
        self.set_with(&self.script, id, fields).await
    }

    /// Writes `fields` to the task `id` with `script`, which decides whether it may.
    async fn set_with(&self, script: &redis::Script, id: &str, fields: &[(&str, &str)]) -> Result<bool, StoreError> {
        let mut invocation = script.key(self.key(id));
        for (field, value) in fields {
            invocation.arg(*field).arg(*value);
        }
        let mut connection = self.connection.clone();
        let done: i64 = invocation.invoke_async(&mut connection).await.map_err(store_error)?;
        Ok(done == 1)
    }
}

/// `text` matched literally by a Redis glob.
fn escape_glob(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

fn store_error(error: redis::RedisError) -> StoreError {
    StoreError::new(format!("redis: {error}"))
}

impl TaskStore for RedisTaskStore {
    fn create<'a>(&'a self, id: &'a str, record: TaskRecord, ttl: Option<Duration>) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let key = self.key(id);
            let mut pipe = redis::pipe();
            let lease = record.lease_until_ms.to_string();
            let mut fields = vec![("state", record.state.as_str()), ("lease", lease.as_str())];
            if let Some(owner) = &record.owner {
                fields.push(("owner", owner.as_str()));
            }
            pipe.atomic().hset_multiple(&key, &fields).ignore();
            if let Some(ttl) = ttl {
                pipe.pexpire(&key, i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX)).ignore();
            }
            let mut connection = self.connection.clone();
            pipe.query_async::<()>(&mut connection).await.map_err(store_error)
        })
    }

    fn save<'a>(&'a self, id: &'a str, state: &'a str, ended: bool, lease_until_ms: u64) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let lease = lease_until_ms.to_string();
            let mut fields = vec![("state", state), ("lease", lease.as_str())];
            if ended {
                fields.push(("ended", "1"));
            }
            self.set_with(&self.save, id, &fields).await
        })
    }

    fn renew<'a>(&'a self, id: &'a str, lease_until_ms: u64) -> StoreFuture<'a, bool> {
        Box::pin(async move { self.set_if_exists(id, &[("lease", &lease_until_ms.to_string())]).await })
    }

    fn load<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let fields: HashMap<String, String> =
                redis::cmd("HGETALL").arg(self.key(id)).query_async(&mut connection).await.map_err(store_error)?;
            let Some(state) = fields.get("state") else { return Ok(None) };
            let lease_until_ms = fields.get("lease").and_then(|lease| lease.parse().ok()).unwrap_or(0);
            let responses: BTreeMap<String, String> = fields
                .iter()
                .filter_map(|(field, value)| Some((field.strip_prefix("in:")?.to_owned(), value.clone())))
                .collect();
            let mut record = TaskRecord::new(state.clone(), lease_until_ms);
            record.cancel_requested = fields.contains_key("cancel");
            record.ended = fields.contains_key("ended");
            record.owner = fields.get("owner").cloned();
            record.responses = responses;
            Ok(Some(record))
        })
    }

    fn ids<'a>(&'a self, prefix: &'a str) -> StoreFuture<'a, Vec<String>> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let head = self.key("");
            // SCAN, not KEYS: it does not block the server while it walks the keyspace.
            let pattern = format!("{}*", escape_glob(&self.key(prefix)));
            let mut keys: redis::AsyncIter<String> =
                redis::AsyncCommands::scan_match(&mut connection, pattern).await.map_err(store_error)?;
            let mut ids = Vec::new();
            while let Some(key) = futures_util::StreamExt::next(&mut keys).await {
                let key = key.map_err(store_error)?;
                ids.extend(key.strip_prefix(&head).map(str::to_owned));
            }
            Ok(ids)
        })
    }

    fn request_cancel<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move { self.set_if_exists(id, &[("cancel", "1")]).await })
    }

    fn respond<'a>(&'a self, id: &'a str, responses: &'a [(String, String)]) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let fields: Vec<(String, &str)> =
                responses.iter().map(|(key, value)| (format!("in:{key}"), value.as_str())).collect();
            let fields: Vec<(&str, &str)> = fields.iter().map(|(field, value)| (field.as_str(), *value)).collect();
            if fields.is_empty() {
                return Ok(self.load(id).await?.is_some());
            }
            self.set_if_exists(id, &fields).await
        })
    }

    fn index<'a>(&'a self, id: &'a str, listing: &'a Listing) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut invocation = self.index.key(self.key(id));
            invocation.key(&redis_listing::bookkeeping(&self.prefix)[..]);
            invocation.key(&redis_listing::sets(&self.prefix, listing)[..]);
            invocation.arg(id).arg(redis_listing::member(&listing.position(id)));
            let mut connection = self.connection.clone();
            let _: i64 = invocation.invoke_async(&mut connection).await.map_err(store_error)?;
            Ok(())
        })
    }

    fn query<'a>(&'a self, query: &'a ListQuery) -> StoreFuture<'a, Option<ListPage>> {
        Box::pin(async move {
            let (set, start, end) = redis_listing::range(&self.prefix, query);
            let mut invocation = self.query.key(set);
            invocation.key(&redis_listing::bookkeeping(&self.prefix)[..]);
            invocation.arg(start).arg(end).arg(query.limit.saturating_add(1));
            let mut connection = self.connection.clone();
            let (total, members): (u64, Vec<String>) =
                invocation.invoke_async(&mut connection).await.map_err(store_error)?;
            Ok(Some(redis_listing::page(total, &members, query.limit)))
        })
    }
}
