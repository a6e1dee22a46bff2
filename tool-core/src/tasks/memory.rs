//! [`MemoryTaskStore`]: the tasks of one process, in a map.

use core::time::Duration;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use tokio::time::Instant;

use super::listing::{ListPage, ListQuery, Listing};
use super::memory_listing::MemoryListing;
use crate::tasks::store::{StoreFuture, TaskRecord, TaskStore};

/// The default [`TaskStore`]: tasks in this process's memory, forgotten when their time to
/// live runs out (swept as new tasks come) or the process ends. Enough for one replica, or
/// for several behind a balancer that sends every request of a task to the replica that
/// started it; otherwise share a [`RedisTaskStore`](crate::tasks::RedisTaskStore).
#[derive(Debug, Default)]
pub struct MemoryTaskStore {
    tasks: Mutex<HashMap<String, Slot>>,
    /// Locked after `tasks` when both are.
    listing: Mutex<MemoryListing>,
}

#[derive(Debug)]
struct Slot {
    record: TaskRecord,
    expires: Option<Instant>,
}

impl Slot {
    fn live(&self, now: Instant) -> bool {
        self.expires.is_none_or(|expires| now < expires)
    }
}

impl MemoryTaskStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        MemoryTaskStore::default()
    }

    /// Runs `change` on the live record `id`; whether there was one.
    fn with_live(&self, id: &str, change: impl FnOnce(&mut TaskRecord)) -> bool {
        let mut tasks = self.tasks.lock().unwrap_or_else(PoisonError::into_inner);
        match tasks.get_mut(id) {
            Some(slot) if slot.live(Instant::now()) => {
                change(&mut slot.record);
                true
            }
            Some(_) => {
                tasks.remove(id);
                false
            }
            None => false,
        }
    }
}

impl TaskStore for MemoryTaskStore {
    fn create<'a>(&'a self, id: &'a str, record: TaskRecord, ttl: Option<Duration>) -> StoreFuture<'a, ()> {
        let now = Instant::now();
        let mut tasks = self.tasks.lock().unwrap_or_else(PoisonError::into_inner);
        // Expired tasks go as new ones come, so the map holds about one TTL's worth.
        tasks.retain(|_, slot| slot.live(now));
        tasks.insert(id.to_owned(), Slot { record, expires: ttl.map(|ttl| now + ttl) });
        Box::pin(core::future::ready(Ok(())))
    }

    fn save<'a>(&'a self, id: &'a str, state: &'a str, ended: bool, lease_until_ms: u64) -> StoreFuture<'a, bool> {
        let mut saved = false;
        self.with_live(id, |record| {
            if !record.ended {
                state.clone_into(&mut record.state);
                record.lease_until_ms = lease_until_ms;
                record.ended = ended;
                saved = true;
            }
        });
        Box::pin(core::future::ready(Ok(saved)))
    }

    fn renew<'a>(&'a self, id: &'a str, lease_until_ms: u64) -> StoreFuture<'a, bool> {
        let renewed = self.with_live(id, |record| record.lease_until_ms = lease_until_ms);
        Box::pin(core::future::ready(Ok(renewed)))
    }

    fn load<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        let mut found = None;
        self.with_live(id, |record| found = Some(record.clone()));
        Box::pin(core::future::ready(Ok(found)))
    }

    fn request_cancel<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        let found = self.with_live(id, |record| record.cancel_requested = true);
        Box::pin(core::future::ready(Ok(found)))
    }

    fn respond<'a>(&'a self, id: &'a str, responses: &'a [(String, String)]) -> StoreFuture<'a, bool> {
        let found = self.with_live(id, |record| {
            for (key, value) in responses {
                record.responses.insert(key.clone(), value.clone());
            }
        });
        Box::pin(core::future::ready(Ok(found)))
    }

    fn ids<'a>(&'a self, prefix: &'a str) -> StoreFuture<'a, Vec<String>> {
        let now = Instant::now();
        let tasks = self.tasks.lock().unwrap_or_else(PoisonError::into_inner);
        let ids = tasks.iter().filter(|(id, slot)| id.starts_with(prefix) && slot.live(now)).map(|(id, _)| id.clone());
        Box::pin(core::future::ready(Ok(ids.collect())))
    }

    fn index<'a>(&'a self, id: &'a str, listing: &'a Listing) -> StoreFuture<'a, ()> {
        let tasks = self.tasks.lock().unwrap_or_else(PoisonError::into_inner);
        if tasks.get(id).is_some_and(|slot| slot.live(Instant::now())) {
            self.listing.lock().unwrap_or_else(PoisonError::into_inner).index(id, listing);
        }
        Box::pin(core::future::ready(Ok(())))
    }

    fn query<'a>(&'a self, query: &'a ListQuery) -> StoreFuture<'a, Option<ListPage>> {
        let now = Instant::now();
        let tasks = self.tasks.lock().unwrap_or_else(PoisonError::into_inner);
        let live = |id: &str| tasks.get(id).is_some_and(|slot| slot.live(now));
        let page = self.listing.lock().unwrap_or_else(PoisonError::into_inner).query(query, live);
        Box::pin(core::future::ready(Ok(Some(page))))
    }
}
