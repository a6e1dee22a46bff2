//! Where tasks live: the [`TaskStore`] trait every replica of a server reads and writes, and
//! the record it keeps per task.
//!
//! A record is split by writer so that no write needs to read first: the replica running the
//! task writes its state and renews its lease; any replica records a cancellation or a
//! client's answers beside it. A store is then a hash per task (Redis) or a map entry, with
//! no compare-and-swap anywhere.

use core::future::Future;
use core::pin::Pin;
use core::time::Duration;
use std::collections::BTreeMap;

use super::listing::{ListPage, ListQuery, Listing};

/// The future a [`TaskStore`] method returns.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// A task store could not be reached or answered in a form it does not write.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoreError {
    /// What went wrong, in the store's words.
    pub message: String,
}

impl StoreError {
    /// An error saying `message`.
    pub fn new(message: impl Into<String>) -> Self {
        StoreError { message: message.into() }
    }
}

impl core::fmt::Display for StoreError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "the task store failed: {}", self.message)
    }
}

impl std::error::Error for StoreError {}

/// One task as a store holds it.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct TaskRecord {
    /// The task as `tasks/get` answers it (the extension's `DetailedTask`, as JSON text),
    /// written by the replica running it.
    pub state: String,
    /// Until when the running replica vouches for the task, in milliseconds since the Unix
    /// epoch: a task still working after its lease ran out lost its replica.
    pub lease_until_ms: u64,
    /// Whether a client asked to cancel it (`tasks/cancel`, on any replica).
    pub cancel_requested: bool,
    /// The client's answers to the task's input requests (`tasks/update`, on any replica),
    /// each as JSON text, by the request's key.
    pub responses: BTreeMap<String, String>,
    /// Whether `state` is terminal (`completed`, `failed`, `cancelled`): then it is final, and
    /// no save changes it.
    pub ended: bool,
    /// Who started it, when the call came with a verified token (its issuer and subject):
    /// only that caller may read, answer or cancel it.
    pub owner: Option<String>,
}

impl TaskRecord {
    /// A record of `state` with a lease until `lease_until_ms`, nothing asked of it yet.
    #[must_use]
    pub fn new(state: String, lease_until_ms: u64) -> Self {
        TaskRecord {
            state,
            lease_until_ms,
            cancel_requested: false,
            responses: BTreeMap::new(),
            ended: false,
            owner: None,
        }
    }
}

/// Where a server's tasks live, shared by every replica that serves the same clients: any
/// of them can answer `tasks/get`, `tasks/update` and `tasks/cancel` for a task another one
/// runs.
///
/// Every method but [`TaskStore::create`] acts only on a task that exists (not expired),
/// and says whether it did: a write must never bring back a task whose time to live ran
/// out. [`MemoryTaskStore`](crate::tasks::MemoryTaskStore) serves one process;
/// [`RedisTaskStore`](crate::tasks::RedisTaskStore) (feature `redis`) serves several.
pub trait TaskStore: Send + Sync + 'static {
    /// Creates the task `id`, to be forgotten `ttl` from now (never, for `None`).
    fn create<'a>(&'a self, id: &'a str, record: TaskRecord, ttl: Option<Duration>) -> StoreFuture<'a, ()>;

    /// Writes the task's state and its lease, `ended` when the state is terminal; `false`, and
    /// nothing written, when the task no longer exists or has already ended. A terminal state
    /// is final: a replica that stalled past its lease cannot overwrite the `failed` a reader
    /// wrote, nor one result another.
    fn save<'a>(&'a self, id: &'a str, state: &'a str, ended: bool, lease_until_ms: u64) -> StoreFuture<'a, bool>;

    /// Renews the task's lease (the running replica only); `false` when the task no longer
    /// exists.
    fn renew<'a>(&'a self, id: &'a str, lease_until_ms: u64) -> StoreFuture<'a, bool>;

    /// The task, or `None` when it does not exist (never did, or expired).
    fn load<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>>;

    /// Records that a client asked to cancel the task; `false` when it does not exist.
    fn request_cancel<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool>;

    /// Records a client's answers (key, JSON text) to the task's input requests; `false`
    /// when it does not exist.
    fn respond<'a>(&'a self, id: &'a str, responses: &'a [(String, String)]) -> StoreFuture<'a, bool>;

    /// The ids of the live tasks whose id starts with `prefix`, in no particular order (A2A's
    /// `ListTasks`). A store that cannot enumerate its tasks says so with an error, the
    /// default.
    fn ids<'a>(&'a self, prefix: &'a str) -> StoreFuture<'a, Vec<String>> {
        let _ = prefix;
        Box::pin(core::future::ready(Err(StoreError::new("this task store cannot list its tasks"))))
    }

    /// Keeps the task `id`'s place in the store's listing, written after each save of it; a
    /// listing older than the one kept is ignored, and a task that does not exist is left
    /// out. The default keeps nothing (then [`TaskStore::query`] answers `None`).
    fn index<'a>(&'a self, id: &'a str, listing: &'a Listing) -> StoreFuture<'a, ()> {
        let _ = (id, listing);
        Box::pin(core::future::ready(Ok(())))
    }

    /// A page of the listed tasks `query` takes, from the store's listing, without reading the
    /// tasks; `None` when the store keeps no listing (the default), and the caller reads every
    /// task ([`TaskStore::ids`]) instead.
    fn query<'a>(&'a self, query: &'a ListQuery) -> StoreFuture<'a, Option<ListPage>> {
        let _ = query;
        Box::pin(core::future::ready(Ok(None)))
    }
}

/// One store shared by several servers of a process (replicas in a test, or a server per
/// listener).
impl<T: TaskStore + ?Sized> TaskStore for std::sync::Arc<T> {
    fn create<'a>(&'a self, id: &'a str, record: TaskRecord, ttl: Option<Duration>) -> StoreFuture<'a, ()> {
        (**self).create(id, record, ttl)
    }

    fn save<'a>(&'a self, id: &'a str, state: &'a str, ended: bool, lease_until_ms: u64) -> StoreFuture<'a, bool> {
        (**self).save(id, state, ended, lease_until_ms)
    }

    fn renew<'a>(&'a self, id: &'a str, lease_until_ms: u64) -> StoreFuture<'a, bool> {
        (**self).renew(id, lease_until_ms)
    }

    fn load<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        (**self).load(id)
    }

    fn request_cancel<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        (**self).request_cancel(id)
    }

    fn respond<'a>(&'a self, id: &'a str, responses: &'a [(String, String)]) -> StoreFuture<'a, bool> {
        (**self).respond(id, responses)
    }

    fn ids<'a>(&'a self, prefix: &'a str) -> StoreFuture<'a, Vec<String>> {
        (**self).ids(prefix)
    }

    fn index<'a>(&'a self, id: &'a str, listing: &'a Listing) -> StoreFuture<'a, ()> {
        (**self).index(id, listing)
    }

    fn query<'a>(&'a self, query: &'a ListQuery) -> StoreFuture<'a, Option<ListPage>> {
        (**self).query(query)
    }
}
