//! [`DynamicTool`]: a tool made at run time, from a name, a description, a JSON Schema and an
//! async handler (a closure that captures configuration, a tool built from a spec, a remote
//! MCP server's tool). It sits in a [`Registry`](crate::Registry) beside the `#[tool]` fns and
//! is listed in every dialect and called the same way.
//!
//! [`DynamicTool::new`] (feature `runtime-schema`) holds its JSON Schema as a
//! [`RuntimeSchema`](crate::schema::RuntimeSchema): the schema is compiled when the tool is
//! made (one that is not a valid draft 2020-12 object schema is a
//! [`RegistryError::InvalidSchema`]), and every call's arguments are validated against it
//! before the handler runs, with lenient coercion when the registry's options ask for it; a
//! call that breaks it never reaches the handler (or the network, for a remote tool), and
//! the model gets every violation named, worded as for a `#[tool]`.
//!
//! [`DynamicTool::typed`] makes one whose arguments are a type deriving `ToolArgs`: its
//! schema is then the type's compile-time tree (every dialect, strict modes included), every
//! call is validated and decoded as a `#[tool]`'s is, and its return type's output schema is
//! stated, while the name, the description and the handler are chosen at run time.

use core::fmt;
use core::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::context::ToolContext;
use crate::dispatch::{CatchUnwind, panicked};
use crate::dispatch::{DecodeOptions, ToolFuture};
use crate::error::RegistryError;
use crate::error::ToolError;
use crate::output::{IntoToolOutput, ToolOutput};
use crate::param::ToolArgs;
use crate::schema::Schema;
use crate::tool::name::is_valid_tool_name;
use crate::tool::{Annotations, TaskSupport, ToolOptions};
use crate::validate::fields::{Check, Fields};

pub(super) type DynHandler =
    dyn Fn(ToolContext, Map<String, Value>, &DecodeOptions) -> ToolFuture<'static> + Send + Sync;

/// A tool made at run time: [`DynamicTool::new`] from a JSON Schema (feature
/// `runtime-schema`), [`DynamicTool::typed`] from a type deriving `ToolArgs`.
///
/// With `runtime-schema`, a whole input schema may be written by hand:
/// [`DynamicTool::new_typed`] hands the handler a `serde` type read from arguments a
/// hand-written schema checked, [`DynamicTool::with_parameters`] puts a hand-written schema in
/// place of a typed tool's (the type's rules still apply after it), and
/// [`DynamicTool::from_tool`] makes a `#[tool]` fn such a tool. [`DynamicTool::deferred`] and
/// [`DynamicTool::deferred_typed`] have no handler: an agent hands their calls back to the
/// application.
#[derive(Clone)]
pub struct DynamicTool {
    pub(crate) name: Arc<str>,
    pub(crate) description: String,
    pub(crate) parameters: Value,
    pub(crate) parameters_json: String,
    /// Its title, owned (the options' is for `#[tool]`'s static text).
    pub(crate) title: Option<String>,
    /// Its scopes, owned, as `title`.
    pub(crate) scopes: Vec<String>,
    /// Every other option, as a `#[tool]` holds them.
    pub(crate) options: ToolOptions,
    pub(crate) handler: Arc<DynHandler>,
    /// Its calls are answered by the application, not run ([`DynamicTool::deferred`]).
    pub(crate) deferred: bool,
    /// The arguments' compile-time tree, for a tool made with [`DynamicTool::typed`].
    pub(crate) schema: Option<&'static Schema>,
    /// How its arguments are checked without running it, where a compile-time check does
    /// (a typed tool's, one without arguments); a tool from a JSON Schema has `checked`.
    pub(crate) check: Option<(Check, &'static Schema)>,
    /// The output schema's text, when the handler's return type states one.
    pub(crate) output_schema: Option<String>,
    /// The parameters compiled, for a tool made with [`DynamicTool::new`].
    #[cfg(feature = "runtime-schema")]
    pub(crate) checked: Option<crate::schema::RuntimeSchema>,
    /// The output schema compiled, set by [`DynamicTool::with_output_schema`].
    #[cfg(feature = "runtime-schema")]
    pub(crate) checked_output: Option<crate::schema::RuntimeSchema>,
    /// What a result that breaks it does.
    #[cfg(feature = "runtime-schema")]
    pub(crate) output_mismatch: crate::output::OutputMismatch,
}

impl DynamicTool {
    /// A tool that takes no arguments: every key of a call's arguments is refused, as for a
    /// `#[tool]` fn without parameters (a handoff's tool).
    #[cfg_attr(not(feature = "agent"), expect(dead_code, reason = "read by the agent's batch (feature `agent`)"))]
    pub(crate) fn without_arguments<F, Fut>(
        name: impl Into<String>,
        description: impl Into<String>,
        handler: F,
    ) -> Result<Self, RegistryError>
    where
        F: Fn(ToolContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolOutput, ToolError>> + Send + 'static,
    {
        const NO_ARGUMENTS: &str = r#"{"type":"object","properties":{},"additionalProperties":false}"#;
        let name = name.into();
        if !is_valid_tool_name(&name) {
            return Err(RegistryError::InvalidName { name });
        }
        let name: Arc<str> = Arc::from(name);
        let tool = Arc::clone(&name);
        let handler: Arc<DynHandler> = Arc::new(move |context, arguments: Map<String, Value>, _: &DecodeOptions| {
            if !arguments.is_empty() {
                let mut violations = crate::validate::violation::Violations::new();
                let mut at = crate::validate::violation::Pointer::root();
                crate::validate::keys::reject_unknown(&arguments, &|_| false, &[], &mut at, &mut violations);
                return crate::dispatch::ready(Err(ToolError::InvalidArguments { tool: tool.to_string(), violations }));
            }
            let future = handler(context);
            guarded(&tool, future)
        });
        let parameters = serde_json::from_str(NO_ARGUMENTS).unwrap_or_default();
        let mut made = DynamicTool::with_parts(name, description.into(), NO_ARGUMENTS.to_owned(), parameters, handler);
        made.check = Some((Check::Object(&Fields::EMPTY), &Schema::EMPTY_OBJECT));
        Ok(made)
    }

    /// A tool named `name` and described at run time, whose arguments are `A` (a type
    /// deriving `ToolArgs`): listed with `A`'s compile-time schema in every dialect, each
    /// call validated and decoded as a `#[tool]`'s is (with the registry's
    /// [`DecodeOptions`]), and `handler`'s return type (anything a `#[tool]` fn may return)
    /// giving the output and, for `Structured<T>`, the output schema.
    ///
    /// ```
    /// use tool_core::{DynamicTool, Registry, ToolArgs};
    ///
    /// #[derive(ToolArgs)]
    /// struct Lookup {
    ///     #[param(min_length = 1)]
    ///     key: String,
    /// }
    ///
    /// let prefix = String::from("config:"); // from configuration, say
    /// let tool = DynamicTool::typed("lookup", format!("Reads a key under {prefix}"), move |_ctx, args: Lookup| {
    ///     let answer = format!("{prefix}{}", args.key);
    ///     async move { answer }
    /// })?;
    /// let mut registry = Registry::new();
    /// registry.add_dynamic(tool)?;
    /// let context = registry.context();
    /// let answer = futures_lite_block_on(registry.call_async(&context, "lookup", r#"{"key": "port"}"#))?;
    /// assert_eq!(answer.to_text(), "config:port");
    /// let refused = futures_lite_block_on(registry.call_async(&context, "lookup", r#"{"key": ""}"#));
    /// assert!(refused.unwrap_err().to_string().contains("/key: must be at least 1 character long"));
    /// # fn futures_lite_block_on<F: std::future::Future>(f: F) -> F::Output { let (mut f, mut cx) = (Box::pin(f),
    /// #     std::task::Context::from_waker(std::task::Waker::noop())); loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } } }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`RegistryError::InvalidName`] for a name some provider refuses.
    pub fn typed<A, O, F, Fut>(
        name: impl Into<String>,
        description: impl Into<String>,
        handler: F,
    ) -> Result<Self, RegistryError>
    where
        A: ToolArgs + Send + 'static,
        O: IntoToolOutput + 'static,
        F: Fn(ToolContext, A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = O> + Send + 'static,
    {
        let name = name.into();
        if !is_valid_tool_name(&name) {
            return Err(RegistryError::InvalidName { name });
        }
        let parameters_json = crate::render::json_schema::<A>();
        let parameters: Value = serde_json::from_str(&parameters_json)
            .map_err(|error| RegistryError::InvalidSchema { name: name.clone(), reason: error.to_string() })?;
        let name: Arc<str> = Arc::from(name);
        let tool = Arc::clone(&name);
        let handler: Arc<DynHandler> = Arc::new(move |context, arguments, options: &DecodeOptions| {
            let named = |error: ToolError| match error {
                ToolError::InvalidArguments { violations, .. } => {
                    ToolError::InvalidArguments { tool: tool.to_string(), violations }
                }
                other => other,
            };
            let args = match crate::dispatch::decode::<A>(Value::Object(arguments), options) {
                Ok(args) => args,
                Err(error) => return crate::dispatch::ready(Err(named(error))),
            };
            output_of(Arc::clone(&tool), handler(context, args))
        });
        let mut made = DynamicTool::with_parts(name, description.into(), parameters_json, parameters, handler);
        made.schema = Some(A::__SCHEMA_REF);
        made.check = Some((A::__CHECK, A::__SCHEMA_REF));
        made.output_schema = O::OUTPUT_SCHEMA.map(crate::render::to_json_output);
        Ok(made)
    }

    pub(crate) fn with_parts(
        name: Arc<str>,
        description: String,
        parameters_json: String,
        parameters: Value,
        handler: Arc<DynHandler>,
    ) -> Self {
        DynamicTool {
            name,
            description,
            parameters_json,
            parameters,
            title: None,
            scopes: Vec::new(),
            options: ToolOptions::DEFAULT,
            handler,
            deferred: false,
            schema: None,
            check: None,
            output_schema: None,
            #[cfg(feature = "runtime-schema")]
            checked: None,
            #[cfg(feature = "runtime-schema")]
            checked_output: None,
            #[cfg(feature = "runtime-schema")]
            output_mismatch: crate::output::OutputMismatch::Refuse,
        }
    }

    /// The JSON Schema of its structured output, when its handler's return type states one
    /// (a tool made with [`DynamicTool::typed`]).
    #[must_use]
    pub fn output_schema(&self) -> Option<&str> {
        self.output_schema.as_deref()
    }

    /// Its arguments' compile-time schema tree, for a tool made with [`DynamicTool::typed`].
    #[must_use]
    pub fn schema(&self) -> Option<&'static Schema> {
        self.schema
    }

    /// A human-readable name (MCP `title`).
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Hints about its behaviour (MCP `annotations`).
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        self.options.annotations = annotations;
        self
    }

    /// A batch holding a call to this tool runs one call at a time.
    #[must_use]
    pub fn sequential(mut self) -> Self {
        self.options.sequential = true;
        self
    }

    /// An agent loop may start a call to it while the model still writes its turn, before
    /// the turn is known to end well, as it does a read-only or idempotent tool's
    /// ([`Entry::starts_early`](crate::registry::Entry::starts_early)).
    #[must_use]
    pub fn early(mut self) -> Self {
        self.options.early = true;
        self
    }

    /// An agent loop asks its approver before every call.
    #[must_use]
    pub fn requires_approval(mut self) -> Self {
        self.options.requires_approval = true;
        self
    }

    /// The OAuth scopes a caller's token must hold to see and call it, as
    /// `#[tool(scopes = [..])]` says for a `#[tool]`.
    #[must_use]
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Whether an MCP client may follow a call as a task, as `#[tool(task = "..")]` says
    /// for a `#[tool]`.
    #[must_use]
    pub fn with_task_support(mut self, task: TaskSupport) -> Self {
        self.options.task = task;
        self
    }

    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its parameters' JSON Schema.
    #[must_use]
    pub fn parameters(&self) -> &Value {
        &self.parameters
    }

    /// `arguments` checked (and coerced, when lenient) as a call would check them, without
    /// running the handler ([`Registry::validate`](crate::Registry::validate)).
    pub(crate) fn validate(
        &self,
        arguments: crate::dispatch::Arguments<'_>,
        options: &DecodeOptions,
    ) -> Result<Value, ToolError> {
        #[cfg(feature = "runtime-schema")]
        let arguments = match &self.checked {
            // A hand-written schema first (`with_parameters`), then the type's own rules.
            Some(_) => crate::dispatch::Arguments::Value(
                self.checked_arguments(arguments.into_value(options)?, options)
                    .map_err(|violations| ToolError::InvalidArguments { tool: self.name.to_string(), violations })?,
            ),
            None => arguments,
        };
        if let Some((check, schema)) = self.check {
            return crate::dispatch::checked_value(&self.name, arguments, options, check, schema);
        }
        let arguments = arguments.into_value(options)?;
        if arguments.is_object() {
            return Ok(arguments);
        }
        let mut violations = crate::validate::violation::Violations::new();
        let at = crate::validate::violation::Pointer::root();
        crate::validate::violation::wrong_type(&arguments, "an object", &at, &mut violations);
        Err(ToolError::InvalidArguments { tool: self.name.to_string(), violations })
    }

    /// Runs the handler with already parsed arguments, once they satisfy the run-time schema
    /// (a typed tool's handler validates them as it decodes them).
    pub(crate) fn run(&self, context: ToolContext, arguments: Value, options: &DecodeOptions) -> ToolFuture<'static> {
        #[cfg(feature = "runtime-schema")]
        let arguments = match self.checked_arguments(arguments, options) {
            Ok(arguments) => arguments,
            Err(violations) => {
                return crate::dispatch::ready(Err(ToolError::InvalidArguments {
                    tool: self.name.to_string(),
                    violations,
                }));
            }
        };
        match arguments {
            #[cfg(feature = "runtime-schema")]
            Value::Object(map) if self.checked_output.is_some() => {
                self.checking_output((self.handler)(context, map, options))
            }
            Value::Object(map) => (self.handler)(context, map, options),
            other => {
                let mut violations = crate::validate::violation::Violations::new();
                crate::validate::violation::wrong_type(
                    &other,
                    "an object",
                    &crate::validate::violation::Pointer::root(),
                    &mut violations,
                );
                Box::pin(core::future::ready(Err(ToolError::InvalidArguments {
                    tool: self.name.to_string(),
                    violations,
                })))
            }
        }
    }
}

/// `future`, with a panic in it turned into [`ToolError::Panicked`] naming `tool`.
/// What `future` gives, as the output of the tool named `tool`: an `Err` its failure, a
/// panic its panic.
pub(crate) fn output_of<O, Fut>(tool: Arc<str>, future: Fut) -> ToolFuture<'static>
where
    O: IntoToolOutput + 'static,
    Fut: Future<Output = O> + Send + 'static,
{
    Box::pin(async move {
        match CatchUnwind::new(Box::pin(future)).await {
            Ok(output) => {
                O::into_tool_output(output).map_err(|message| ToolError::Failed { tool: tool.to_string(), message })
            }
            Err(payload) => Err(panicked(&tool, &*payload)),
        }
    })
}

pub(super) fn guarded<Fut>(tool: &Arc<str>, future: Fut) -> ToolFuture<'static>
where
    Fut: Future<Output = Result<ToolOutput, ToolError>> + Send + 'static,
{
    let tool = Arc::clone(tool);
    Box::pin(async move {
        match CatchUnwind::new(Box::pin(future)).await {
            Ok(result) => result,
            Err(payload) => Err(panicked(&tool, &*payload)),
        }
    })
}

impl fmt::Debug for DynamicTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicTool").field("name", &self.name).finish_non_exhaustive()
    }
}
