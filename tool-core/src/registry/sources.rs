//! Tool sources resolved when a run (or a listing) asks: the native registry, other MCP
//! servers, remote A2A agents, anything that implements [`ToolSource`]. One rule holds
//! across them all: a name belongs to one source. Two sources offering one name is a
//! [`ResolveError::Collision`] naming both, never a silent replacement.
//!
//! [`ToolSources::resolve`] fails fast (at start, a source that cannot list its tools is an
//! error); [`ToolSources::refresh`] (what an agent does at the start of each run) leaves a
//! failed or colliding source out and reports it, and the other sources' tools stay offered.
//! Each source names its own tools; those of this crate follow one rule,
//! `<kind>_<source>_<tool>` (`mcp_weather_get_forecast`, `a2a_planner_plan_trip`), sanitised
//! to the characters every provider accepts and bounded to 64 (`tool::name`).

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use super::Registry;

/// What a [`ToolSource`] gives: its tools now, or why it has none.
pub type SourceFuture<'a> = Pin<Box<dyn Future<Output = Result<Registry, SourceError>> + Send + 'a>>;

/// Somewhere tools come from, listed anew each time a run resolves its tools.
pub trait ToolSource: Send + Sync + 'static {
    /// The source in errors and events: `native`, `mcp:weather`, `a2a:planner`.
    fn label(&self) -> &str;

    /// Its tools now, under the names they are offered by.
    fn tools(&self) -> SourceFuture<'_>;
}

/// A shared source (an `Arc<RemoteServer>` kept to close it later).
impl<T: ToolSource> ToolSource for Arc<T> {
    fn label(&self) -> &str {
        (**self).label()
    }

    fn tools(&self) -> SourceFuture<'_> {
        (**self).tools()
    }
}

/// Why a source could not list its tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceError {
    message: String,
}

impl SourceError {
    /// An error saying `message`.
    #[must_use]
    pub fn new(message: impl Into<String>) -> Self {
        SourceError { message: message.into() }
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SourceError {}

/// Why the tools could not be resolved (or what was left out of a refresh).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResolveError {
    /// A source could not list its tools.
    Failed {
        /// The source's label.
        source: String,
        /// What went wrong.
        error: SourceError,
    },
    /// Two sources offer a tool of one name.
    Collision {
        /// The name.
        name: String,
        /// The source that offered it first.
        first: String,
        /// The source that offered it too.
        second: String,
    },
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Failed { source, error } => write!(f, "the tool source {source} failed: {error}"),
            ResolveError::Collision { name, first, second } => {
                write!(f, "the tool {name:?} is offered by both {first} and {second}; a name belongs to one source")
            }
        }
    }
}

impl std::error::Error for ResolveError {}

/// The tools of a [`Registry`], as a source labelled as given.
struct Fixed {
    label: String,
    registry: Arc<Registry>,
}

impl ToolSource for Fixed {
    fn label(&self) -> &str {
        &self.label
    }

    fn tools(&self) -> SourceFuture<'_> {
        Box::pin(core::future::ready(Ok((*self.registry).clone())))
    }
}

/// The sources of a run's tools, and the tools they resolved to last.
///
/// ```
/// # async fn sources() -> Result<(), tool_core::registry::ResolveError> {
/// use tool_core::Registry;
/// use tool_core::registry::ToolSources;
///
/// let sources = ToolSources::new().native(Registry::new()).registry("reports", Registry::new());
/// let tools = sources.resolve().await?;
/// assert!(tools.is_empty());
/// # Ok(()) }
/// ```
pub struct ToolSources {
    sources: Vec<Arc<dyn ToolSource>>,
    current: Mutex<Arc<Registry>>,
}

impl Default for ToolSources {
    fn default() -> Self {
        Self::new()
    }
}

impl ToolSources {
    /// No sources yet.
    #[must_use]
    pub fn new() -> Self {
        ToolSources { sources: Vec::new(), current: Mutex::new(Arc::new(Registry::new())) }
    }

    /// Adds the program's own tools, labelled `native`.
    #[must_use]
    pub fn native(self, registry: impl Into<Arc<Registry>>) -> Self {
        self.registry("native", registry)
    }

    /// Adds a fixed registry, labelled `label`.
    #[must_use]
    pub fn registry(self, label: impl Into<String>, registry: impl Into<Arc<Registry>>) -> Self {
        self.source(Fixed { label: label.into(), registry: registry.into() })
    }

    /// Adds `source`.
    #[must_use]
    pub fn source(mut self, source: impl ToolSource) -> Self {
        self.sources.push(Arc::new(source));
        self
    }

    /// The sources' labels, in the order they were added.
    pub fn labels(&self) -> impl Iterator<Item = &str> {
        self.sources.iter().map(|source| source.label())
    }

    /// Lists every source (all at once) and merges their tools; kept as
    /// [`ToolSources::current`].
    ///
    /// # Errors
    /// The first source that failed, or the first name two sources share.
    pub async fn resolve(&self) -> Result<Arc<Registry>, ResolveError> {
        let (registry, mut problems) = self.merge().await;
        if problems.is_empty() { Ok(self.keep(registry)) } else { Err(problems.swap_remove(0)) }
    }

    /// Lists every source and merges the tools of those that answered, leaving out a source
    /// that failed or would take a name another source already has; kept as
    /// [`ToolSources::current`]. Returns what was left out and why.
    pub async fn refresh(&self) -> (Arc<Registry>, Vec<ResolveError>) {
        let (registry, problems) = self.merge().await;
        (self.keep(registry), problems)
    }

    /// The tools of the last resolve or refresh (none before the first).
    #[must_use]
    pub fn current(&self) -> Arc<Registry> {
        Arc::clone(&self.current.lock().unwrap_or_else(PoisonError::into_inner))
    }

    fn keep(&self, registry: Registry) -> Arc<Registry> {
        let registry = Arc::new(registry);
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = Arc::clone(&registry);
        registry
    }

    /// The tools of every source that answered, in one registry: the first's (its options,
    /// shared state and layers kept, which its own tools may rely on), then the others' tools.
    async fn merge(&self) -> (Registry, Vec<ResolveError>) {
        let listed = futures_util::future::join_all(self.sources.iter().map(|source| source.tools())).await;
        let mut merged: Option<Registry> = None;
        let mut owner: HashMap<String, usize> = HashMap::new();
        let mut problems = Vec::new();
        for (index, (source, tools)) in self.sources.iter().zip(listed).enumerate() {
            let label = || source.label().to_owned();
            let tools = match tools {
                Ok(tools) => tools,
                Err(error) => {
                    problems.push(ResolveError::Failed { source: label(), error });
                    continue;
                }
            };
            let taken = tools.names().into_iter().find_map(|name| owner.get(name).map(|first| (name, *first)));
            if let Some((name, first)) = taken {
                let first = self.sources[first].label().to_owned();
                problems.push(ResolveError::Collision { name: name.to_owned(), first, second: label() });
                continue;
            }
            owner.extend(tools.names().into_iter().map(|name| (name.to_owned(), index)));
            match &mut merged {
                None => merged = Some(tools),
                Some(merged) => {
                    if let Err(error) = merged.absorb(&tools) {
                        problems
                            .push(ResolveError::Failed { source: label(), error: SourceError::new(error.to_string()) });
                    }
                }
            }
        }
        (merged.unwrap_or_default(), problems)
    }
}

impl fmt::Debug for ToolSources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolSources").field("sources", &self.labels().collect::<Vec<_>>()).finish_non_exhaustive()
    }
}
