//! Where long-running calls live while they run, for every protocol that has them: an MCP
//! server's tasks (`mcp`, the `io.modelcontextprotocol/tasks` extension) and an A2A server's
//! (`a2a-server`) are records in one [`TaskStore`], so a server that speaks both, or many
//! replicas of one, share them.
//!
//! Tasks live in a [`TaskStore`]: [`MemoryTaskStore`] by default, or one shared by every
//! replica ([`RedisTaskStore`], feature `redis`), so that any replica answers for a task
//! another one runs. The replica running a task renews a lease on it; a task whose lease
//! lapsed (its replica died) reads as `failed`, never `working` forever. A task is
//! forgotten its time to live after it was created, whether or not its result was read; the
//! work of a forgotten task is cancelled at its next heartbeat and dropped a heartbeat later.
//! How long and how often is [`TaskSettings`].
//!
//! A store may also keep a listing of its tasks ([`TaskStore::index`], [`TaskStore::query`]),
//! so that A2A's `ListTasks` reads a page of ids in order, and a count under its filters,
//! rather than every task: both stores here do (Redis in sorted sets, one per owner and filter).

mod listing;
mod memory;
mod memory_listing;
#[cfg(feature = "redis")]
mod redis;
#[cfg(feature = "redis")]
mod redis_listing;
mod store;

use core::time::Duration;

pub use listing::{ListPage, ListPosition, ListQuery, Listing};
pub use memory::MemoryTaskStore;
#[cfg(feature = "redis")]
pub use redis::RedisTaskStore;
pub use store::{StoreError, StoreFuture, TaskRecord, TaskStore};

/// How a server keeps its tasks: how long, how often a client should poll, and how long a
/// replica's lease on a task it runs lasts.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct TaskSettings {
    /// How long after its creation a task is forgotten (`ttlMs`); `None` keeps it until the
    /// store is emptied. Five minutes by default.
    pub ttl: Option<Duration>,
    /// How often a client should poll (`pollIntervalMs`); one second by default.
    pub poll_interval: Duration,
    /// How long a replica vouches for a task it runs without renewing (it renews every third
    /// of it): a task whose replica died reads as failed this long after. Fifteen seconds by
    /// default.
    pub lease: Duration,
    /// How often a task waiting for the client looks for its answers in the store (a
    /// `tasks/update` that reached this replica is delivered at once); 100 ms by default.
    pub input_poll: Duration,
}

impl Default for TaskSettings {
    fn default() -> Self {
        TaskSettings {
            ttl: Some(Duration::from_mins(5)),
            poll_interval: Duration::from_secs(1),
            lease: Duration::from_secs(15),
            input_poll: Duration::from_millis(100),
        }
    }
}

impl TaskSettings {
    /// The defaults.
    #[must_use]
    pub fn new() -> Self {
        TaskSettings::default()
    }

    /// Forget a task `ttl` after its creation (`None`: never).
    #[must_use]
    pub fn with_ttl(mut self, ttl: Option<Duration>) -> Self {
        self.ttl = ttl;
        self
    }

    /// Ask clients to poll every `interval`.
    #[must_use]
    pub fn with_poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval = interval;
        self
    }

    /// Vouch for a running task `lease` at a time.
    #[must_use]
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    /// Look for a waiting task's answers every `interval`.
    #[must_use]
    pub fn with_input_poll(mut self, interval: Duration) -> Self {
        self.input_poll = interval;
        self
    }
}
