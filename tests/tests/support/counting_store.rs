//! A task store that counts what listings read of the one it wraps: the tasks loaded and the
//! whole-store scans. Without `listing` it keeps none (its `index` and `query` are the
//! trait's defaults), as a store of one's own may not, so `ListTasks` reads every task.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tool_core::tasks::{ListPage, ListQuery, Listing, StoreFuture, TaskRecord, TaskStore};

pub struct Counting<S> {
    inner: S,
    listing: bool,
    loads: AtomicUsize,
    scans: AtomicUsize,
}

impl<S> Counting<S> {
    pub fn new(inner: S, listing: bool) -> Self {
        Counting { inner, listing, loads: AtomicUsize::new(0), scans: AtomicUsize::new(0) }
    }

    /// The tasks loaded and the scans since the last call.
    pub fn take(&self) -> (usize, usize) {
        (self.loads.swap(0, Ordering::Relaxed), self.scans.swap(0, Ordering::Relaxed))
    }
}

impl<S: TaskStore> TaskStore for Counting<S> {
    fn create<'a>(&'a self, id: &'a str, record: TaskRecord, ttl: Option<Duration>) -> StoreFuture<'a, ()> {
        self.inner.create(id, record, ttl)
    }

    fn save<'a>(&'a self, id: &'a str, state: &'a str, ended: bool, lease_until_ms: u64) -> StoreFuture<'a, bool> {
        self.inner.save(id, state, ended, lease_until_ms)
    }

    fn renew<'a>(&'a self, id: &'a str, lease_until_ms: u64) -> StoreFuture<'a, bool> {
        self.inner.renew(id, lease_until_ms)
    }

    fn load<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        self.loads.fetch_add(1, Ordering::Relaxed);
        self.inner.load(id)
    }

    fn request_cancel<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        self.inner.request_cancel(id)
    }

    fn respond<'a>(&'a self, id: &'a str, responses: &'a [(String, String)]) -> StoreFuture<'a, bool> {
        self.inner.respond(id, responses)
    }

    fn ids<'a>(&'a self, prefix: &'a str) -> StoreFuture<'a, Vec<String>> {
        self.scans.fetch_add(1, Ordering::Relaxed);
        self.inner.ids(prefix)
    }

    fn index<'a>(&'a self, id: &'a str, listing: &'a Listing) -> StoreFuture<'a, ()> {
        if self.listing { self.inner.index(id, listing) } else { Box::pin(core::future::ready(Ok(()))) }
    }

    fn query<'a>(&'a self, query: &'a ListQuery) -> StoreFuture<'a, Option<ListPage>> {
        if self.listing { self.inner.query(query) } else { Box::pin(core::future::ready(Ok(None))) }
    }
}
