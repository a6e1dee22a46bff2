//! Calling a registry's tools: by name ([`Registry::call`], [`Registry::call_with`],
//! [`Registry::call_async`]), and for the servers and the agent loop the one call path
//! they share, [`Registry::start_call`]: the entry looked up once, a plain fn where its
//! [`RunPlace`] says (on tokio's blocking pool unless it is known not to block or nothing
//! else waits), an async one on the caller's task, and one error for a blocking task that
//! never reported back.

use std::sync::Arc;

use super::Registry;
use super::entry::{Entry, Kind};
use crate::context::ToolContext;
use crate::dispatch::{Arguments, ToolFuture, ready};
use crate::error::ToolError;
use crate::output::ToolOutput;
#[cfg(any(feature = "mcp", feature = "agent"))]
use crate::telemetry::{capture_content, execute_tool_span};
use crate::tool::{Handler, Receiver, SyncHandler, SyncMethodHandler, ToolDef};
#[cfg(feature = "agent")]
use {crate::tool::pace::QUICK, std::time::Duration, std::time::Instant};

/// Where [`Registry::start_call`] runs a plain fn (an `inline` one runs on the caller's
/// task whatever this says).
#[cfg(any(feature = "mcp", feature = "agent"))]
#[derive(Debug, Clone, Copy)]
pub(crate) enum RunPlace {
    /// On tokio's blocking pool: the caller may stop waiting before the fn returns (a
    /// timeout, a cancellation, a task that goes on in the background).
    Pool,
    /// On the caller's thread (`block_in_place`, on a multi-thread runtime; on the pool on
    /// another): the call is the only work of the task awaiting it, an MCP request's.
    #[cfg(feature = "mcp")]
    Alone,
    /// On the caller's thread as `Alone` when the fn has always returned at once (see
    /// `tool::pace`) and `deadline`, the soonest anything may end the wait, is further off
    /// than that; on the pool otherwise. An agent's batch, whose calls share the run's task.
    #[cfg(feature = "agent")]
    Batch { deadline: Duration },
}

/// Whether the current runtime is a multi-thread one, the kind where `block_in_place` may
/// be called.
#[cfg(any(feature = "mcp", feature = "agent"))]
pub(crate) fn multi_thread() -> bool {
    tokio::runtime::Handle::current().runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread
}

/// Whether an agent's batch runs `def`'s plain fn in place (on a multi-thread runtime):
/// it has always returned at once, and `deadline` is further off than that.
#[cfg(feature = "agent")]
fn batch_in_place(def: &ToolDef, deadline: Duration) -> bool {
    deadline > QUICK && def.pace().is_quick()
}

#[cfg(feature = "agent")]
impl Registry {
    /// Whether [`Registry::start_call`] with [`RunPlace::Batch`] would run `entry` on the
    /// caller's thread, runtime aside: a batch with several such calls runs them under
    /// one `block_in_place`.
    pub(crate) fn batch_in_place(&self, entry: &Entry, deadline: Duration) -> bool {
        self.layers.is_empty()
            && match entry.kind() {
                Kind::Static(def) | Kind::Method(def, _) => {
                    !def.handler().is_async() && !def.inline() && batch_in_place(def, deadline)
                }
                Kind::Dynamic(_) => false,
            }
    }
}

impl Registry {
    /// Calls a plain tool by name with a fresh context.
    ///
    /// # Errors
    /// Every [`ToolError`]: unknown tool, bad arguments, the tool's `Err` or panic, and
    /// [`ToolError::RequiresAsync`] for an `async` tool.
    pub fn call<'a>(&self, name: &str, arguments: impl Into<Arguments<'a>>) -> Result<ToolOutput, ToolError> {
        self.call_with(&self.context, name, arguments)
    }

    /// Calls a plain tool by name with the given context; a context without state (made
    /// with [`ToolContext::new`]) gets this registry's.
    ///
    /// # Errors
    /// As [`Registry::call`].
    pub fn call_with<'a>(
        &self,
        context: &ToolContext,
        name: &str,
        arguments: impl Into<Arguments<'a>>,
    ) -> Result<ToolOutput, ToolError> {
        let entry = self.lookup(name)?;
        #[cfg(feature = "runtime-schema")]
        if self.output_checks.is_some() {
            return self.checked(entry, self.call_plain_entry(entry, context, arguments.into()));
        }
        self.call_plain_entry(entry, context, arguments.into())
    }

    /// [`Registry::call_with`] of `entry`, its result as the tool gave it. Always inlined: it
    /// has two call sites (with and without the output check), and out of line the unchecked
    /// call pays for the checked one (docs/performance.md, "Dispatch").
    #[expect(clippy::inline_always, reason = "measured: see the comment above")]
    #[inline(always)]
    fn call_plain_entry(
        &self,
        entry: &Entry,
        context: &ToolContext,
        arguments: Arguments<'_>,
    ) -> Result<ToolOutput, ToolError> {
        match entry.kind() {
            Kind::Static(def) => match def.handler() {
                Handler::Sync(shim) => self.run_plain(shim, context, arguments),
                _ => Err(ToolError::RequiresAsync { tool: def.name().to_owned() }),
            },
            Kind::Method(def, receiver) => match def.handler() {
                Handler::SyncMethod(shim) => self.run_method(shim, &**receiver, context, arguments),
                _ => Err(ToolError::RequiresAsync { tool: def.name().to_owned() }),
            },
            Kind::Dynamic(tool) => Err(ToolError::RequiresAsync { tool: tool.name().to_owned() }),
        }
    }

    /// Calls any tool by name; a plain tool runs at once, an async one (and a tool made at
    /// run time) when awaited. A context without state gets this registry's.
    pub fn call_async<'a>(
        &'a self,
        context: &'a ToolContext,
        name: &str,
        arguments: impl Into<Arguments<'a>>,
    ) -> ToolFuture<'a> {
        match self.lookup(name) {
            Ok(entry) => self.call_entry(entry, context, arguments.into()),
            Err(error) => ready(Err(error)),
        }
    }

    /// Calls the tool of `entry` (one of this registry's), as [`Registry::call_async`] does.
    pub(crate) fn call_entry<'a>(
        &'a self,
        entry: &'a Entry,
        context: &'a ToolContext,
        arguments: Arguments<'a>,
    ) -> ToolFuture<'a> {
        let future = self.run_entry(entry, context, arguments);
        #[cfg(feature = "runtime-schema")]
        let future = self.checking(entry, future);
        future
    }

    /// The call of `entry`'s tool, its result as the tool gave it.
    fn run_entry<'a>(&'a self, entry: &'a Entry, context: &'a ToolContext, arguments: Arguments<'a>) -> ToolFuture<'a> {
        let def = match entry.kind() {
            Kind::Static(def) => def,
            Kind::Method(def, receiver) => return self.call_method(def, &**receiver, context, arguments),
            Kind::Dynamic(tool) => {
                let context = if context.has_state() { context.clone() } else { self.with_own_state(context) };
                return match arguments.into_value(&self.options) {
                    Ok(value) => tool.run(context, value, &self.options),
                    Err(error) => ready(Err(error)),
                };
            }
        };
        match def.handler() {
            Handler::Sync(shim) => ready(self.run_plain(shim, context, arguments)),
            Handler::Async(shim) if context.has_state() => shim(context, arguments, &self.options),
            Handler::Async(shim) => {
                let context = self.with_own_state(context);
                Box::pin(async move { shim(&context, arguments, &self.options).await })
            }
            // `add` refuses a method without its receiver.
            Handler::SyncMethod(_) | Handler::AsyncMethod(_) => {
                ready(Err(ToolError::RequiresAsync { tool: def.name().to_owned() }))
            }
        }
    }

    /// Calls a method's shim on `receiver`, as [`Registry::call_entry`] does a fn's.
    fn call_method<'a>(
        &'a self,
        def: &'static ToolDef,
        receiver: &'a Receiver,
        context: &'a ToolContext,
        arguments: Arguments<'a>,
    ) -> ToolFuture<'a> {
        match def.handler() {
            Handler::SyncMethod(shim) => ready(self.run_method(shim, receiver, context, arguments)),
            Handler::AsyncMethod(shim) if context.has_state() => shim(receiver, context, arguments, &self.options),
            Handler::AsyncMethod(shim) => {
                let context = self.with_own_state(context);
                Box::pin(async move { shim(receiver, &context, arguments, &self.options).await })
            }
            // A method's definition always holds a method's shim.
            _ => ready(Err(ToolError::RequiresAsync { tool: def.name().to_owned() })),
        }
    }

    /// Starts a call of `entry` (one of this registry's) that owns everything it needs: a
    /// plain fn where `placement` says (it may block), an async fn (and a tool made at run
    /// time) polled by whoever awaits the future, which costs no hand-off between threads.
    /// The one call path of the MCP server and the agent loop.
    #[cfg(any(feature = "mcp", feature = "agent"))]
    pub(crate) fn start_call(
        self: &Arc<Self>,
        entry: &Entry,
        context: ToolContext,
        arguments: Arguments<'static>,
        placement: RunPlace,
    ) -> ToolFuture<'static> {
        if self.layers.is_empty() {
            self.start_call_direct(entry, context, arguments, placement)
        } else {
            self.start_layered(entry, context, arguments)
        }
    }

    /// [`Registry::start_call`] without the layers: what the innermost layer calls.
    #[cfg(any(feature = "mcp", feature = "agent"))]
    pub(super) fn start_call_direct(
        self: &Arc<Self>,
        entry: &Entry,
        context: ToolContext,
        arguments: Arguments<'static>,
        placement: RunPlace,
    ) -> ToolFuture<'static> {
        let registry = Arc::clone(self);
        let entry = entry.clone();
        let span = execute_tool_span(entry.name(), context.call_id());
        if !span.is_disabled() && capture_content() {
            span.record("gen_ai.tool.call.arguments", &*arguments.to_text());
        }
        let def = match entry.kind() {
            // An `inline` plain fn runs when the future is polled, on the caller's task.
            Kind::Static(def) | Kind::Method(def, _) if !def.handler().is_async() && !def.inline() => *def,
            _ => return traced(span, Box::pin(async move { registry.call_entry(&entry, &context, arguments).await })),
        };
        let on_pool = span.clone();
        let job = move |in_place: bool| {
            let _entered = on_pool.enter();
            #[cfg(feature = "agent")]
            let started = Instant::now();
            let run = |arguments: Arguments<'_>| match (entry.kind(), def.handler()) {
                (Kind::Method(_, receiver), Handler::SyncMethod(shim)) => {
                    registry.run_method(shim, &**receiver, &context, arguments)
                }
                (_, Handler::Sync(shim)) => registry.run_plain(shim, &context, arguments),
                _ => Err(ToolError::RequiresAsync { tool: def.name().to_owned() }),
            };
            let outcome = run(arguments);
            #[cfg(feature = "runtime-schema")]
            let outcome = registry.checked(&entry, outcome);
            #[cfg(feature = "agent")]
            def.pace().record(started.elapsed(), in_place);
            #[cfg(not(feature = "agent"))]
            let _ = in_place;
            outcome
        };
        // `block_in_place` where a fn runs on the caller's thread: tokio moves the worker's
        // other tasks to another thread while it runs, and the fn is outside the runtime's
        // context as on the pool, so what may not run inside it (`Handle::block_on`, a
        // `blocking_lock`, `reqwest::blocking`) still works. A current-thread runtime has
        // no other thread to move to: there, the pool.
        match placement {
            // Nothing can end the caller's wait before the fn, which has always returned at
            // once, returns again: the two thread wake-ups of the hand-off are saved.
            #[cfg(feature = "agent")]
            RunPlace::Batch { deadline } if batch_in_place(def, deadline) && multi_thread() => {
                return traced(span, Box::pin(async move { tokio::task::block_in_place(|| job(true)) }));
            }
            // The caller's task runs nothing else.
            #[cfg(feature = "mcp")]
            RunPlace::Alone if multi_thread() => {
                return traced(span, Box::pin(async move { tokio::task::block_in_place(|| job(false)) }));
            }
            _ => {}
        }
        let task = tokio::task::spawn_blocking(|| job(false));
        let call = Box::pin(async move {
            task.await.unwrap_or_else(|join| {
                let tool = def.name().to_owned();
                if join.is_cancelled() {
                    Err(ToolError::Cancelled { tool })
                } else {
                    Err(ToolError::Panicked { tool, message: format!("its blocking task ended: {join}") })
                }
            })
        });
        traced(span, call)
    }

    /// Runs a plain tool's shim; a context without state gets this registry's.
    // The conversion happens inside each call so that the arguments are built where the
    // shim reads them: converted first and then moved, they would be copied byte by byte on
    // the stack (the cost is in `docs/performance.md`).
    #[inline]
    fn run_plain<'a>(
        &self,
        shim: SyncHandler,
        context: &ToolContext,
        arguments: impl Into<Arguments<'a>>,
    ) -> Result<ToolOutput, ToolError> {
        if context.has_state() {
            shim(context, arguments.into(), &self.options)
        } else {
            shim(&self.with_own_state(context), arguments.into(), &self.options)
        }
    }

    /// Runs a plain method's shim on `receiver`; a context without state gets this
    /// registry's.
    #[inline]
    fn run_method<'a>(
        &self,
        shim: SyncMethodHandler,
        receiver: &Receiver,
        context: &ToolContext,
        arguments: impl Into<Arguments<'a>>,
    ) -> Result<ToolOutput, ToolError> {
        if context.has_state() {
            shim(receiver, context, arguments.into(), &self.options)
        } else {
            shim(receiver, &self.with_own_state(context), arguments.into(), &self.options)
        }
    }

    /// `context` with this registry's state.
    pub(super) fn with_own_state(&self, context: &ToolContext) -> ToolContext {
        context.clone().with_state(Arc::clone(&self.state))
    }

    /// The entry named `name`, or the error that lists the names there are.
    #[inline]
    pub(crate) fn lookup(&self, name: &str) -> Result<&Entry, ToolError> {
        self.get(name).ok_or_else(|| self.unknown_tool(name))
    }

    /// [`ToolError::UnknownTool`] for `name`, with every name this registry has.
    #[cold]
    pub(crate) fn unknown_tool(&self, name: &str) -> ToolError {
        ToolError::UnknownTool {
            name: name.to_owned(),
            available: self.names().into_iter().map(str::to_owned).collect(),
        }
    }
}

/// `call`, inside `span` ([`traced`](crate::telemetry::traced)), recording `error.type` when
/// it fails and, when content is captured, its result; unboxed again when no subscriber
/// wants the span.
#[cfg(any(feature = "mcp", feature = "agent"))]
fn traced(span: tracing::Span, call: ToolFuture<'static>) -> ToolFuture<'static> {
    if span.is_disabled() {
        return call;
    }
    Box::pin(crate::telemetry::traced(
        span,
        || call,
        |span, outcome| match outcome {
            Err(error) => {
                span.record("error.type", error.kind());
            }
            Ok(output) if capture_content() => {
                span.record("gen_ai.tool.call.result", &*output.to_text());
            }
            Ok(_) => {}
        },
    ))
}
