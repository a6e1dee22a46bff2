//! [`ToolContext`]: what a tool may know about the call it serves (its id, shared state,
//! a way to report progress, a cancellation flag), passed as an optional first parameter
//! `ctx: &ToolContext`.

use core::any::{Any, TypeId};
use core::fmt;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Typed values shared by every call of a registry's tools (a database pool, an HTTP
/// client), one per type.
#[derive(Default, Clone)]
pub struct State {
    values: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl State {
    /// Stores `value`, replacing any earlier value of the same type.
    pub fn insert<T: Any + Send + Sync>(&mut self, value: T) {
        self.values.insert(TypeId::of::<T>(), Arc::new(value));
    }

    /// The value of type `T`, if one was stored.
    #[must_use]
    pub fn get<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.values.get(&TypeId::of::<T>())?.downcast_ref()
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State").field("values", &self.values.len()).finish()
    }
}

/// A flag a caller raises to ask a running tool to stop; cheap to clone and share.
#[derive(Debug, Clone, Default)]
pub struct CancellationToken(Arc<AtomicBool>);

impl CancellationToken {
    /// A token not yet cancelled.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every holder of this token to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Release);
    }

    /// Whether [`CancellationToken::cancel`] was called.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

/// A progress report from a running tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The id of the call reporting.
    pub call_id: Option<String>,
    /// Work done so far.
    pub progress: f64,
    /// Total work, when known.
    pub total: Option<f64>,
    /// A human-readable note.
    pub message: Option<String>,
}

type ProgressSink = Arc<dyn Fn(Progress) + Send + Sync>;

/// The facts of one call, given to tools that take `ctx: &ToolContext` first.
#[derive(Clone, Default)]
pub struct ToolContext {
    call_id: Option<String>,
    state: Arc<State>,
    progress: Option<ProgressSink>,
    // Created on first use: most calls are never cancelled, and dispatch should not
    // allocate a flag for each of them.
    cancellation: Option<CancellationToken>,
}

impl ToolContext {
    /// A context with no call id, no state and no progress sink.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the provider's id for this call.
    #[must_use]
    pub fn with_call_id(mut self, call_id: impl Into<String>) -> Self {
        self.call_id = Some(call_id.into());
        self
    }

    /// Shares `state` with the tool (registries do this with their own state).
    #[must_use]
    pub fn with_state(mut self, state: Arc<State>) -> Self {
        self.state = state;
        self
    }

    /// Sends the tool's progress reports to `sink`.
    #[must_use]
    pub fn with_progress(mut self, sink: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(sink));
        self
    }

    /// Uses `token` as this call's cancellation flag.
    #[must_use]
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancellation = Some(token);
        self
    }

    /// The provider's id for this call, when it sent one.
    #[must_use]
    pub fn call_id(&self) -> Option<&str> {
        self.call_id.as_deref()
    }

    /// The shared value of type `T`, if the registry holds one.
    #[must_use]
    pub fn state<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.state.get::<T>()
    }

    /// Reports progress to whoever listens; does nothing when nobody does.
    pub fn report_progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(sink) = &self.progress {
            sink(Progress { call_id: self.call_id.clone(), progress, total, message: message.map(str::to_owned) });
        }
    }

    /// This call's cancellation flag, when the caller gave one.
    #[must_use]
    pub fn cancellation(&self) -> Option<&CancellationToken> {
        self.cancellation.as_ref()
    }

    /// Whether the caller asked this call to stop.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.cancellation.as_ref().is_some_and(CancellationToken::is_cancelled)
    }
}

impl fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("call_id", &self.call_id)
            .field("state", &self.state)
            .field("progress", &self.progress.is_some())
            .field("cancellation", &self.cancellation)
            .finish()
    }
}
