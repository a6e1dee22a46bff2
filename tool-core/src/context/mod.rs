//! [`ToolContext`]: what a tool may know about the call it serves and ask of whoever made
//! it, passed as an optional first parameter `ctx: &ToolContext`: the call id, the
//! registry's shared [`State`], progress, log messages, cancellation it can await, and
//! through the call's [`Host`], sampling and elicitation.
//!
#![doc = include_str!("../../docs/context.md")]

mod cancel;
mod client;
mod elicit;
mod form;
mod host;
mod state;
mod url;

use core::any::Any;
use core::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::auth::Claims;

pub use cancel::{CancellationToken, Cancelled};
pub use client::{Client, ClientCapabilities};
pub use elicit::{elicitation_problem, elicitation_schema};
pub use host::{
    Elicitation, ElicitationAnswer, ElicitationRequest, Host, HostError, HostFuture, LogLevel, LogMessage, Role, Root,
    SamplingMessage, SamplingRequest, SamplingResponse, UrlElicitation,
};
pub use state::{State, StateError};

#[cfg(feature = "elicit")]
use crate::dispatch::DecodeOptions;
#[cfg(feature = "elicit")]
use crate::param::{ElicitForm, ToolArgs};

/// A progress report from a running tool.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// The id of the call reporting.
    pub call_id: Option<String>,
    /// Work done so far.
    pub progress: f64,
    /// Total work, when known.
    pub total: Option<f64>,
    /// A human-readable note.
    pub message: Option<String>,
    /// The result so far, for whoever watches the call (streamed output, a preview): an agent's
    /// [`Event::ToolProgress`](crate::agent::Event::ToolProgress) carries it; it is never sent
    /// to a model, and means nothing once the call has its result. An MCP client hears the
    /// numbers and the note only (the protocol has no partial results).
    pub partial: Option<crate::output::ToolOutput>,
}

impl Progress {
    /// `progress` done, of an unknown total, from no call in particular.
    #[must_use]
    pub fn new(progress: f64) -> Self {
        Progress { call_id: None, progress, total: None, message: None, partial: None }
    }

    /// The same report, with the result so far.
    #[must_use]
    pub fn with_partial(mut self, partial: crate::output::ToolOutput) -> Self {
        self.partial = Some(partial);
        self
    }

    /// The same report, of `total` work.
    #[must_use]
    pub fn with_total(mut self, total: f64) -> Self {
        self.total = Some(total);
        self
    }

    /// The same report, with a note.
    #[must_use]
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// The same report, from the call `call_id`.
    #[must_use]
    pub fn with_call_id(mut self, call_id: impl Into<String>) -> Self {
        self.call_id = Some(call_id.into());
        self
    }
}

type ProgressSink = Arc<dyn Fn(Progress) + Send + Sync>;

/// The facts of one call, given to tools that take `ctx: &ToolContext` first.
///
/// A registry builds one per call ([`Registry::context`](crate::Registry::context)) with
/// its state; a context made with [`ToolContext::new`] and handed to a registry gets that
/// registry's state, so the obvious path never loses it.
#[derive(Clone, Default)]
pub struct ToolContext {
    call_id: Option<String>,
    // `None` until a registry or the caller sets it: a registry fills it in for a context
    // that has none.
    state: Option<Arc<State>>,
    progress: Option<ProgressSink>,
    // Created on first use: most calls are never cancelled, and dispatch should not
    // allocate a flag for each of them.
    cancellation: Option<CancellationToken>,
    host: Option<Arc<dyn Host>>,
    claims: Option<Arc<Claims>>,
    client: Option<Arc<Client>>,
    #[cfg(feature = "mcp")]
    http: Option<Arc<axum::http::request::Parts>>,
    /// The agent run this call belongs to, for an agent run as a tool to relay its events to
    /// (type-erased: the agent sits above this layer).
    #[cfg(feature = "agent")]
    run: Option<Arc<dyn Any + Send + Sync>>,
}

impl ToolContext {
    /// A context with no call id, no state (a registry adds its own), no host.
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
        self.state = Some(state);
        self
    }

    /// Sends the tool's progress reports to `sink` (instead of to the host).
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

    /// Routes progress, log messages, sampling and elicitation to `host`.
    #[must_use]
    pub fn with_host(mut self, host: Arc<dyn Host>) -> Self {
        self.host = Some(host);
        self
    }

    /// The caller's verified access token, as the MCP server's OAuth layer or an agent's
    /// caller read it.
    #[must_use]
    pub fn with_claims(mut self, claims: Arc<Claims>) -> Self {
        self.claims = Some(claims);
        self
    }

    /// Who made the call (an MCP server sets it from the client's `initialize` or the
    /// request's `_meta`).
    #[must_use]
    pub fn with_client(mut self, client: Arc<Client>) -> Self {
        self.client = Some(client);
        self
    }

    /// The HTTP request that carried the call (streamable HTTP): its headers, URI and the
    /// extensions a layer of the application put there.
    #[cfg(feature = "mcp")]
    #[must_use]
    pub fn with_http_request(mut self, parts: Arc<axum::http::request::Parts>) -> Self {
        self.http = Some(parts);
        self
    }

    /// Ties the call to the agent run it belongs to.
    #[cfg(feature = "agent")]
    #[must_use]
    pub(crate) fn with_run(mut self, run: Arc<dyn Any + Send + Sync>) -> Self {
        self.run = Some(run);
        self
    }

    /// The agent run the call belongs to, when an agent made it.
    #[cfg(feature = "agent")]
    pub(crate) fn run(&self) -> Option<&Arc<dyn Any + Send + Sync>> {
        self.run.as_ref()
    }

    /// What the caller's verified access token says (subject, client, scopes), when the
    /// call came with one.
    #[must_use]
    pub fn claims(&self) -> Option<&Claims> {
        self.claims.as_deref()
    }

    /// Who made the call: its name, protocol revision and what it may be asked, when the
    /// caller's protocol says (MCP does).
    #[must_use]
    pub fn client(&self) -> Option<&Client> {
        self.client.as_deref()
    }

    /// The HTTP request that carried the call, when it came over streamable HTTP.
    #[cfg(feature = "mcp")]
    #[must_use]
    pub fn http_request(&self) -> Option<&axum::http::request::Parts> {
        self.http.as_deref()
    }

    /// Whether a registry or the caller has set the shared state.
    pub(crate) fn has_state(&self) -> bool {
        self.state.is_some()
    }

    /// The provider's id for this call, when it sent one.
    #[must_use]
    pub fn call_id(&self) -> Option<&str> {
        self.call_id.as_deref()
    }

    /// The shared value of type `T`.
    ///
    /// # Errors
    /// A [`StateError`] naming `T` and the types the registry does hold.
    pub fn state<T: Any + Send + Sync>(&self) -> Result<&T, StateError> {
        match &self.state {
            Some(state) => state.get::<T>(),
            None => Err(StateError { wanted: core::any::type_name::<T>(), available: Vec::new() }),
        }
    }

    /// Reports progress to whoever listens; does nothing when nobody does.
    pub fn report_progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        if !self.reports_reach_anyone() {
            return;
        }
        let report = Progress { call_id: None, progress, total, message: message.map(str::to_owned), partial: None };
        self.report(report);
    }

    /// Whether a progress report would reach anyone: build a costly partial result only
    /// when it would.
    #[must_use]
    pub fn reports_reach_anyone(&self) -> bool {
        self.progress.is_some() || self.host.is_some()
    }

    /// Reports `report` (made with [`Progress::new`], perhaps with a partial result,
    /// [`Progress::with_partial`]) to whoever listens, as this call's; does nothing when
    /// nobody does.
    pub fn report(&self, mut report: Progress) {
        if report.call_id.is_none() {
            report.call_id.clone_from(&self.call_id);
        }
        match (&self.progress, &self.host) {
            (Some(sink), _) => sink(report),
            (None, Some(host)) => host.progress(&report),
            (None, None) => {}
        }
    }

    /// Whether a log message at `level` would reach anyone.
    #[must_use]
    pub fn log_enabled(&self, level: LogLevel) -> bool {
        self.host.as_ref().is_some_and(|host| host.log_enabled(level))
    }

    /// Sends a log message (MCP `notifications/message`) at `level`, when the caller
    /// listens at that level; `data` is text or any JSON.
    pub fn log(&self, level: LogLevel, data: impl Into<Value>) {
        self.log_to(None, level, data);
    }

    /// [`ToolContext::log`] under a logger's name.
    pub fn log_to(&self, logger: Option<&str>, level: LogLevel, data: impl Into<Value>) {
        if let Some(host) = &self.host
            && host.log_enabled(level)
        {
            host.log(LogMessage {
                call_id: self.call_id.clone(),
                level,
                logger: logger.map(str::to_owned),
                data: data.into(),
            });
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

    /// Completes when the caller asks this call to stop; never, for a call that cannot be
    /// cancelled. Race it against the work (`select!`) in an async tool.
    pub async fn cancelled(&self) {
        match &self.cancellation {
            Some(token) => token.cancelled().await,
            None => core::future::pending().await,
        }
    }

    /// Asks the caller's LLM for a completion (MCP sampling).
    ///
    /// # Errors
    /// [`HostError::Unsupported`] when the caller cannot sample, [`HostError::Cancelled`]
    /// when the call is cancelled while waiting, [`HostError::Failed`] when it answers
    /// with an error.
    pub async fn sample(&self, request: SamplingRequest) -> Result<SamplingResponse, HostError> {
        let host = self.host.as_ref().ok_or(HostError::Unsupported { capability: "sampling" })?;
        self.unless_cancelled(host.sample(request)).await
    }

    /// The directories and files the caller lets the tool see (MCP's roots), asked of the
    /// client at each call: they change while a session lasts.
    ///
    /// # Errors
    /// As [`ToolContext::sample`]; [`HostError::Unsupported`] when the client did not
    /// declare roots.
    pub async fn roots(&self) -> Result<Vec<Root>, HostError> {
        let host = self.host.as_ref().ok_or(HostError::Unsupported { capability: "roots" })?;
        self.unless_cancelled(host.roots()).await
    }

    /// Asks the user for a `T` (MCP elicitation): the requested schema is `T`'s, and the
    /// answer is validated exactly as tool arguments are. `T` must be a flat object of
    /// strings, numbers, booleans and string enums (MCP allows nothing else): any other `T`
    /// is refused by `cargo check` at this call ([`ElicitForm`]),
    /// and a keyword the form has no room for when the program is built. Needs the `elicit`
    /// feature (on with `mcp`).
    ///
    /// # Errors
    /// As [`ToolContext::sample`], and [`HostError::InvalidAnswer`] with every violation
    /// when the answer breaks `T`'s schema.
    #[cfg(feature = "elicit")]
    pub fn elicit<T: ToolArgs + ElicitForm + Send + 'static>(
        &self,
        message: impl Into<String>,
    ) -> HostFuture<'_, Elicitation<T>> {
        // A plain fn returning a boxed future: the form's bound is then checked once, at the
        // call, rather than again for an `async fn`'s future and its `.await`.
        Box::pin(self.elicit_checked::<T>(message.into()))
    }

    #[cfg(feature = "elicit")]
    async fn elicit_checked<T: ToolArgs>(&self, message: String) -> Result<Elicitation<T>, HostError> {
        const {
            if let Some(problem) = elicitation_problem(&T::SCHEMA) {
                panic!("{}", problem);
            }
        }
        let host = self.host.as_ref().ok_or(HostError::Unsupported { capability: "elicitation" })?;
        let request = ElicitationRequest { message, requested_schema: elicitation_schema(&T::SCHEMA) };
        match self.unless_cancelled(host.elicit(request)).await? {
            ElicitationAnswer::Accept(content) => crate::dispatch::decode::<T>(content, &DecodeOptions::default())
                .map(Elicitation::Accepted)
                .map_err(HostError::InvalidAnswer),
            ElicitationAnswer::Decline => Ok(Elicitation::Declined),
            ElicitationAnswer::Cancel => Ok(Elicitation::Cancelled),
        }
    }

    /// Waits for `request`, or gives [`HostError::Cancelled`] as soon as the call is.
    async fn unless_cancelled<T>(&self, request: HostFuture<'_, T>) -> Result<T, HostError> {
        let Some(token) = &self.cancellation else {
            return request.await;
        };
        let mut request = request;
        let mut cancelled = core::pin::pin!(token.cancelled());
        core::future::poll_fn(|cx| {
            if cancelled.as_mut().poll(cx).is_ready() {
                return core::task::Poll::Ready(Err(HostError::Cancelled));
            }
            request.as_mut().poll(cx)
        })
        .await
    }
}

impl fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("call_id", &self.call_id)
            .field("state", &self.state)
            .field("progress", &self.progress.is_some())
            .field("cancellation", &self.cancellation)
            .field("host", &self.host.is_some())
            .field("claims", &self.claims)
            .field("client", &self.client)
            .finish_non_exhaustive()
    }
}
