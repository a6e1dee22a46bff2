//! tower layers around tool calls ([`Registry::layer`], [`Registry::layer_group`],
//! [`Registry::layer_tool`]): timeouts, concurrency limits, rate limits and load shedding
//! from tower (or any crate that writes tower layers), for every path a call takes (the MCP
//! server and the agent loop both start calls through [`Registry::start_call`]).
//!
//! Each tool's stack is built on its first call, inside the runtime (a `Buffer` spawns its
//! worker there), and kept: clones of the registry (a live tool list's next version) share
//! it, so a concurrency limit holds across them. A layer's own error (a timeout elapsed, a
//! limit shed the call) becomes [`ToolError::Rejected`], a result the model reads.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use tower::util::BoxCloneSyncService;
use tower::{Layer, Service, ServiceExt as _};

use super::Registry;
use super::entry::Entry;
use crate::context::ToolContext;
use crate::dispatch::Arguments;
use crate::dispatch::ToolFuture;
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::tool::ToolDef;

/// The error type between layers: tower's boxed error. A tool's own [`ToolError`] travels
/// in it unchanged.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A tool call as a tower service sees it: the tool, its context; the arguments travel
/// along, unread by layers.
pub struct ToolRequest {
    registry: Arc<Registry>,
    entry: Entry,
    context: ToolContext,
    arguments: Arguments<'static>,
}

impl ToolRequest {
    /// The tool called.
    #[must_use]
    pub fn entry(&self) -> &Entry {
        &self.entry
    }

    /// The call's context (its id, the caller's claims, cancellation).
    #[must_use]
    pub fn context(&self) -> &ToolContext {
        &self.context
    }
}

impl core::fmt::Debug for ToolRequest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ToolRequest")
            .field("tool", &self.entry.name())
            .field("context", &self.context)
            .finish_non_exhaustive()
    }
}

/// A tool's call path as a service, the type every layer wraps.
pub type ToolService = BoxCloneSyncService<ToolRequest, ToolOutput, BoxError>;

/// A tower layer a tool call can be wrapped in ([`Registry::layer`], `layer_group`,
/// `layer_tool`, and the MCP server's prompts and resources): one whose service answers a
/// [`ToolRequest`] with a [`ToolOutput`], cloneable and shareable across threads, its error
/// any error. Implemented for every such layer: `tower::timeout::TimeoutLayer`, a
/// `ConcurrencyLimitLayer`, your own.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a layer a tool call can be wrapped in",
    note = "a `ToolLayer` is a `tower::Layer<ToolService>` whose service answers a `ToolRequest` with a `ToolOutput`, is `Clone + Send + Sync + 'static`, and has an error that converts into `BoxError`"
)]
pub trait ToolLayer:
    Layer<
        ToolService,
        Service: Service<ToolRequest, Response = ToolOutput, Error: Into<BoxError>, Future: Send + 'static>
                     + Clone
                     + Send
                     + Sync
                     + 'static,
    > + Send
    + Sync
    + 'static
{
}

impl<L> ToolLayer for L where
    L: Layer<
            ToolService,
            Service: Service<ToolRequest, Response = ToolOutput, Error: Into<BoxError>, Future: Send + 'static>
                         + Clone
                         + Send
                         + Sync
                         + 'static,
        > + Send
        + Sync
        + 'static
{
}

type Wrap = Arc<dyn Fn(ToolService) -> ToolService + Send + Sync>;

/// Which calls a layer wraps.
#[derive(Clone)]
enum Scope {
    Every,
    Group(String),
    Tool(String),
}

/// The layers of a registry, and each tool's stack once built.
#[derive(Clone, Default)]
pub(super) struct Layers {
    rules: Vec<(Scope, Wrap)>,
    built: Arc<RwLock<HashMap<Arc<str>, ToolService>>>,
}

impl core::fmt::Debug for Layers {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Layers").field("rules", &self.rules.len()).finish_non_exhaustive()
    }
}

impl Layers {
    pub(super) fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    fn add<L>(&mut self, scope: Scope, layer: L)
    where
        L: ToolLayer,
    {
        let wrap: Wrap = Arc::new(move |inner| BoxCloneSyncService::new(layer.layer(inner).map_err(Into::into)));
        self.rules.push((scope, wrap));
        // The stacks built so far lack the new layer; clones made before keep theirs.
        self.built = Arc::default();
    }

    /// The stack of `entry`: the layers for every tool outermost, then its group's, then its
    /// own, each set in the order added (the first outermost), around the direct call path.
    fn service(&self, entry: &Entry) -> ToolService {
        if let Some(service) = self.built.read().unwrap_or_else(PoisonError::into_inner).get(entry.name()) {
            return service.clone();
        }
        let group = entry.def().and_then(ToolDef::group);
        let applies = |scope: &Scope, rank: u8| match (scope, rank) {
            (Scope::Every, 0) => true,
            (Scope::Group(name), 1) => group == Some(name.as_str()),
            (Scope::Tool(name), 2) => name == entry.name(),
            _ => false,
        };
        let mut service = BoxCloneSyncService::new(tower::service_fn(direct));
        for rank in [2, 1, 0] {
            for (_, wrap) in self.rules.iter().rev().filter(|(scope, _)| applies(scope, rank)) {
                service = wrap(service);
            }
        }
        let mut built = self.built.write().unwrap_or_else(PoisonError::into_inner);
        built.entry(Arc::from(entry.name())).or_insert(service).clone()
    }
}

/// The call path without layers, as the innermost service.
fn direct(request: ToolRequest) -> impl Future<Output = Result<ToolOutput, BoxError>> {
    let ToolRequest { registry, entry, context, arguments } = request;
    let call = registry.start_call_direct(&entry, context, arguments, super::RunPlace::Pool);
    async move { call.await.map_err(BoxError::from) }
}

impl Registry {
    /// Wraps every tool's calls in `layer` (a tower layer: `TimeoutLayer`,
    /// `ConcurrencyLimitLayer`, `LoadShedLayer`, or a `ServiceBuilder` of several).
    ///
    /// ```
    /// # #[cfg(feature = "mcp")] {
    /// use std::time::Duration;
    /// use tool_core::Registry;
    /// let mut registry = Registry::new();
    /// registry.layer(tower::timeout::TimeoutLayer::new(Duration::from_secs(30)));
    /// # }
    /// ```
    pub fn layer<L>(&mut self, layer: L) -> &mut Self
    where
        L: ToolLayer,
    {
        self.layers.add(Scope::Every, layer);
        self
    }

    /// Wraps the calls of the tools of `#[tool(group = "..")]` `group` in `layer`.
    pub fn layer_group<L>(&mut self, group: impl Into<String>, layer: L) -> &mut Self
    where
        L: ToolLayer,
    {
        self.layers.add(Scope::Group(group.into()), layer);
        self
    }

    /// Wraps the calls of the tool named `name` in `layer`.
    pub fn layer_tool<L>(&mut self, name: impl Into<String>, layer: L) -> &mut Self
    where
        L: ToolLayer,
    {
        self.layers.add(Scope::Tool(name.into()), layer);
        self
    }

    /// Starts a call through `entry`'s layers.
    pub(super) fn start_layered(
        self: &Arc<Self>,
        entry: &Entry,
        context: ToolContext,
        arguments: Arguments<'static>,
    ) -> ToolFuture<'static> {
        let service = self.layers.service(entry);
        let tool = entry.name().to_owned();
        let request = ToolRequest { registry: Arc::clone(self), entry: entry.clone(), context, arguments };
        Box::pin(async move { service.oneshot(request).await.map_err(|error| rejected(tool, error)) })
    }
}

/// A layer's error as the model reads it; a tool's own error unchanged.
fn rejected(tool: String, error: BoxError) -> ToolError {
    match error.downcast::<ToolError>() {
        Ok(error) => *error,
        Err(error) => ToolError::Rejected { tool, reason: error.to_string() },
    }
}
