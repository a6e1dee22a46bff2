//! What a store keeps to list tasks without reading them (A2A's `ListTasks`): a task's
//! [`Listing`] (when it changed, whose it is, its context and state), written beside each
//! save, and the [`ListQuery`] a listing asks with, answered a [`ListPage`] at a time in the
//! order of [`ListPosition`]s: the most recently updated first, ties by id.

/// What a listing knows of a task: written with [`TaskStore::index`](super::TaskStore::index)
/// after each save, read by [`TaskStore::query`](super::TaskStore::query).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Listing {
    /// When the task last changed, in microseconds since the Unix epoch.
    pub updated_us: u64,
    /// Who may see it (the record's [`owner`](super::TaskRecord::owner)).
    pub owner: Option<String>,
    /// The conversation it belongs to (A2A's `contextId`).
    pub context: String,
    /// Its state, as the protocol spells it (`TASK_STATE_WORKING`).
    pub state: String,
}

impl Listing {
    /// A task of `owner` in `context`, in `state` since `updated_us`.
    #[must_use]
    pub fn new(updated_us: u64, owner: Option<String>, context: impl Into<String>, state: impl Into<String>) -> Self {
        Listing { updated_us, owner, context: context.into(), state: state.into() }
    }

    /// Where the task `id` stands in a listing.
    #[must_use]
    pub fn position(&self, id: &str) -> ListPosition {
        ListPosition { updated_us: self.updated_us, id: id.to_owned() }
    }

    /// Whether `query`'s filters (not its page) take the task.
    #[must_use]
    pub fn matches(&self, query: &ListQuery) -> bool {
        self.owner == query.owner
            && query.context.as_ref().is_none_or(|context| *context == self.context)
            && query.state.as_ref().is_none_or(|state| *state == self.state)
            && query.updated_after_us.is_none_or(|after| self.updated_us > after)
    }
}

/// A task's place in a listing, ordered as a listing is: the most recently updated first, ties
/// by id, the smaller first (as bytes). A page starts after the position the page before ended
/// at, so a task updated between pages moves ahead of the cursor and is not listed twice.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ListPosition {
    /// When the task last changed, in microseconds since the Unix epoch.
    pub updated_us: u64,
    /// The task's id, as given to [`TaskStore::index`](super::TaskStore::index).
    pub id: String,
}

impl ListPosition {
    /// The position of the task `id` updated at `updated_us`.
    #[must_use]
    pub fn new(updated_us: u64, id: impl Into<String>) -> Self {
        ListPosition { updated_us, id: id.into() }
    }

    /// Whether a task at `self` comes after `cursor` in a listing (is older, or as old with a
    /// greater id).
    #[must_use]
    pub fn follows(&self, cursor: &ListPosition) -> bool {
        self > cursor
    }
}

impl Ord for ListPosition {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        other.updated_us.cmp(&self.updated_us).then_with(|| self.id.cmp(&other.id))
    }
}

impl PartialOrd for ListPosition {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The tasks a listing asks for: one owner's, filtered, a page after a cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListQuery {
    /// Whose tasks (`None`: the tasks started without a verified caller).
    pub owner: Option<String>,
    /// Only the tasks of this context.
    pub context: Option<String>,
    /// Only the tasks in this state.
    pub state: Option<String>,
    /// Only the tasks updated after this, in microseconds since the Unix epoch.
    pub updated_after_us: Option<u64>,
    /// The page starts after this position (the last of the page before).
    pub after: Option<ListPosition>,
    /// The most tasks the page holds.
    pub limit: usize,
}

impl ListQuery {
    /// The first `limit` tasks of `owner`, unfiltered.
    #[must_use]
    pub fn new(owner: Option<String>, limit: usize) -> Self {
        ListQuery { owner, context: None, state: None, updated_after_us: None, after: None, limit }
    }

    /// Only the tasks of `context`.
    #[must_use]
    pub fn context(mut self, context: impl Into<String>) -> Self {
        self.context = Some(context.into());
        self
    }

    /// Only the tasks in `state`.
    #[must_use]
    pub fn state(mut self, state: impl Into<String>) -> Self {
        self.state = Some(state.into());
        self
    }

    /// Only the tasks updated after `updated_us`.
    #[must_use]
    pub fn updated_after(mut self, updated_us: u64) -> Self {
        self.updated_after_us = Some(updated_us);
        self
    }

    /// The page after `cursor`.
    #[must_use]
    pub fn after(mut self, cursor: ListPosition) -> Self {
        self.after = Some(cursor);
        self
    }
}

/// A page of a listing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListPage {
    /// The page's tasks, in order.
    pub tasks: Vec<ListPosition>,
    /// How many tasks the query's filters take, on every page.
    pub total: u64,
    /// Whether a page follows this one.
    pub more: bool,
}

impl ListPage {
    /// A page of `tasks` among `total`, another page following when `more`.
    #[must_use]
    pub fn new(tasks: Vec<ListPosition>, total: u64, more: bool) -> Self {
        ListPage { tasks, total, more }
    }
}
