//! The listing a [`MemoryTaskStore`](super::MemoryTaskStore) keeps: each listed task's
//! [`Listing`] by id, and their positions in order, so a page is read from the cursor on.

use std::collections::{BTreeSet, HashMap};
use std::ops::Bound;

use super::listing::{ListPage, ListPosition, ListQuery, Listing};

#[derive(Debug, Default)]
pub(super) struct MemoryListing {
    order: BTreeSet<ListPosition>,
    entries: HashMap<String, Listing>,
}

impl MemoryListing {
    /// Lists the task `id` as `listing`, unless what is kept is newer.
    pub(super) fn index(&mut self, id: &str, listing: &Listing) {
        if let Some(kept) = self.entries.get(id) {
            if kept.updated_us > listing.updated_us {
                return;
            }
            self.order.remove(&kept.position(id));
        }
        self.order.insert(listing.position(id));
        self.entries.insert(id.to_owned(), listing.clone());
    }

    /// The page `query` asks for, of the tasks `live` says still exist; those that do not are
    /// forgotten.
    pub(super) fn query(&mut self, query: &ListQuery, live: impl Fn(&str) -> bool) -> ListPage {
        let mut gone = Vec::new();
        let mut taken = |position: &ListPosition| -> bool {
            if !live(&position.id) {
                gone.push(position.clone());
                return false;
            }
            self.entries.get(&position.id).is_some_and(|listing| listing.matches(query))
        };
        let total = self.order.iter().filter(|position| taken(position)).count();
        // The positions after the cursor, in the listing's order (the set's).
        let after = match &query.after {
            Some(cursor) => self.order.range((Bound::Excluded(cursor.clone()), Bound::Unbounded)),
            None => self.order.range::<ListPosition, _>(..),
        };
        let mut rest = after.filter(|position| {
            live(&position.id) && self.entries.get(&position.id).is_some_and(|listing| listing.matches(query))
        });
        let tasks: Vec<ListPosition> = rest.by_ref().take(query.limit).cloned().collect();
        let more = rest.next().is_some();
        for position in gone {
            self.order.remove(&position);
            self.entries.remove(&position.id);
        }
        ListPage::new(tasks, u64::try_from(total).unwrap_or(u64::MAX), more)
    }
}
