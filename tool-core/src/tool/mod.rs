//! What `#[tool]` produces: a [`ToolDef`] (name, description, the compile-time schema tree
//! and the dispatch shim, its [`Handler`]), the [`Tool`] trait of the generated types, and
//! [`DynamicTool`](dynamic::DynamicTool), a tool made at run time. Nothing here knows a
//! provider: the texts a provider sends are asked of [`ToolDef::parameters_in`].

pub(crate) mod deferred;
pub(crate) mod dynamic;
#[cfg(feature = "runtime-schema")]
pub(crate) mod dynamic_schema;
pub(crate) mod name;
#[cfg(feature = "runtime-schema")]
pub(crate) mod overridden;
#[cfg(feature = "agent")]
pub(crate) mod pace;
pub(crate) mod set;

use std::sync::OnceLock;

use crate::context::ToolContext;
use crate::dispatch::{Arguments, DecodeOptions, ToolFuture};
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::render::dialect::Dialect;
use crate::render::{definition_in_place, to_json_in, to_json_output};
use crate::schema::Schema;

/// A tool, as `#[tool]` describes it. Its argument schema is a tree built at compile time
/// (a `const`); the texts (the parameters, the definition, each dialect, the output schema)
/// are written from that tree on first use and kept, which costs a few microseconds once
/// where writing them during `const` evaluation would cost every build.
pub struct ToolDef {
    name: &'static str,
    description: &'static str,
    schema: &'static Schema,
    /// How its arguments are checked, without decoding them.
    check: crate::validate::fields::Check,
    /// The definition, with the parameters in place from the offset on (to its last byte).
    texts: OnceLock<(Box<str>, usize)>,
    rust_path: &'static str,
    output: Option<&'static Schema>,
    handler: Handler,
    /// Whether the fn takes a `&ToolContext`: one that does not cannot report progress, log,
    /// or ask the client anything, so an MCP server may answer it without the session.
    context: bool,
    /// The `#[tool(..)]` keys, whole: a new key is a field of [`ToolOptions`] and nothing here.
    options: ToolOptions,
    // One cell for every dialect but JSON Schema's (`parameters_json`), written together on
    // first use: one `OnceLock` keeps the static each `#[tool]` writes small, which the
    // compiler evaluates per tool.
    dialects: OnceLock<[Result<Box<str>, &'static str>; Dialect::COUNT - 1]>,
    output_schema: OnceLock<Option<Box<str>>>,
    /// How long a plain fn's runs have taken (see [`pace`]).
    #[cfg(feature = "agent")]
    pace: pace::Pace,
}

/// The parts of a [`ToolDef`], as `#[tool]` writes them.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct ToolDefParts {
    pub name: &'static str,
    pub description: &'static str,
    pub schema: &'static Schema,
    pub check: crate::validate::fields::Check,
    pub rust_path: &'static str,
    pub output: Option<&'static Schema>,
    pub handler: Handler,
    /// Whether the fn takes a `&ToolContext`.
    pub context: bool,
    pub options: ToolOptions,
}

/// The `#[tool(..)]` keys beside `name`: a tool that sets none names
/// [`ToolOptions::DEFAULT`] rather than spelling out each default. A [`ToolDef`] holds them
/// whole, and so does a [`DynamicTool`](dynamic::DynamicTool) (whose title and scopes are its
/// own, owned, text).
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
#[expect(clippy::struct_excessive_bools, reason = "independent keys of `#[tool]`, each a flag, not states")]
pub struct ToolOptions {
    pub strict: Option<bool>,
    pub title: Option<&'static str>,
    pub annotations: Annotations,
    pub sequential: bool,
    pub early: bool,
    pub inline: bool,
    pub requires_approval: bool,
    pub group: Option<&'static str>,
    pub scopes: &'static [&'static str],
    pub task: TaskSupport,
}

impl ToolOptions {
    /// No key set.
    pub const DEFAULT: ToolOptions = ToolOptions {
        strict: None,
        title: None,
        annotations: Annotations::new(),
        sequential: false,
        early: false,
        inline: false,
        requires_approval: false,
        group: None,
        scopes: &[],
        task: TaskSupport::Forbidden,
    };
}

impl ToolDef {
    /// What `#[tool]` emits; not for hand-written code, whose fields may change.
    #[doc(hidden)]
    #[must_use]
    pub const fn __new(parts: ToolDefParts) -> Self {
        let ToolDefParts { name, description, schema, check, rust_path, output, handler, context, options } = parts;
        ToolDef {
            name,
            description,
            schema,
            check,
            texts: OnceLock::new(),
            rust_path,
            output,
            handler,
            context,
            options,
            dialects: OnceLock::new(),
            output_schema: OnceLock::new(),
            #[cfg(feature = "agent")]
            pace: pace::Pace::new(),
        }
    }

    /// Its `#[tool(..)]` keys.
    pub(crate) const fn options(&self) -> &ToolOptions {
        &self.options
    }

    /// The name the model calls it by.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// What it does, for the model.
    #[must_use]
    pub const fn description(&self) -> &'static str {
        self.description
    }

    /// The schema tree of its arguments.
    #[must_use]
    pub const fn schema(&self) -> &'static Schema {
        self.schema
    }

    /// How its arguments are checked without decoding them (`Registry::validate`).
    pub(crate) const fn check(&self) -> crate::validate::fields::Check {
        self.check
    }

    /// [`ToolDef::schema`] as JSON Schema text, written on first use.
    #[must_use]
    pub fn parameters_json(&'static self) -> &'static str {
        let (definition, start) = self.texts();
        &definition[*start..definition.len() - 1]
    }

    /// `{"name":…,"description":…,"parameters":…}`, written on first use.
    #[must_use]
    pub fn definition_json(&'static self) -> &'static str {
        &self.texts().0
    }

    /// The definition and its parameters, written together once.
    fn texts(&'static self) -> &'static (Box<str>, usize) {
        self.texts.get_or_init(|| definition_in_place(self.name, self.description, self.schema))
    }

    /// The Rust path of the `fn` (`my_crate::weather::get_weather`), for error messages.
    #[must_use]
    pub const fn rust_path(&self) -> &'static str {
        self.rust_path
    }

    /// `#[tool(group = "..")]`: the group [`Registry::collect_group`](crate::Registry::collect_group)
    /// selects it by.
    #[must_use]
    pub const fn group(&self) -> Option<&'static str> {
        self.options.group
    }

    /// `#[tool(scopes = [..])]`: the OAuth scopes a caller's token must hold to see and call
    /// it (checked by the MCP server's OAuth layer and by [`Entry::permits`](crate::Entry::permits)).
    #[must_use]
    pub const fn scopes(&self) -> &'static [&'static str] {
        self.options.scopes
    }

    /// `#[tool(task = "..")]`: whether an MCP client may follow a call as a task (the
    /// `io.modelcontextprotocol/tasks` extension).
    #[must_use]
    pub const fn task_support(&self) -> TaskSupport {
        self.options.task
    }

    /// `#[tool(strict)]` (`Some(true)`), `#[tool(strict = false)]` (`Some(false)`), or
    /// neither: the registry's default decides.
    #[must_use]
    pub const fn strict(&self) -> Option<bool> {
        self.options.strict
    }

    /// A human-readable name, `#[tool(title = "..")]` (MCP `title`).
    #[must_use]
    pub const fn title(&self) -> Option<&'static str> {
        self.options.title
    }

    /// Hints about the tool's behaviour (MCP `annotations`); untrusted by clients.
    #[must_use]
    pub const fn annotations(&self) -> Annotations {
        self.options.annotations
    }

    /// The dispatch shim.
    #[doc(hidden)]
    #[must_use]
    pub const fn handler(&self) -> Handler {
        self.handler
    }

    /// `#[tool(inline)]`: a plain fn that never blocks, called on the caller's task (the
    /// agent's, an MCP request's) without the hand-off to tokio's blocking pool.
    ///
    /// Without it, a plain fn may block, so it runs where it cannot stall other work: an MCP
    /// request's on its own task's thread (`block_in_place`); an agent batch's on the blocking
    /// pool until it has returned within 100 µs four times in a row, then in place, and back
    /// on the pool, for a longer streak each time, whenever a run in place is slow. The
    /// hand-off to the pool costs tens of microseconds a call, which the streak saves for fns
    /// that turn out never to block (`docs/performance.md`, "agent").
    #[must_use]
    pub const fn inline(&self) -> bool {
        self.options.inline
    }

    /// How long the fn's runs have taken: whether an agent's batch may run it in place.
    #[cfg(feature = "agent")]
    pub(crate) fn pace(&self) -> &pace::Pace {
        &self.pace
    }

    /// Whether the fn takes a `&ToolContext`. One that does not cannot report progress, log
    /// or ask the client anything, so an MCP server answers its calls without the session.
    #[must_use]
    pub const fn takes_context(&self) -> bool {
        self.context
    }

    /// `#[tool(sequential)]`: a batch holding a call to this tool runs one call at a time.
    #[must_use]
    pub const fn sequential(&self) -> bool {
        self.options.sequential
    }

    /// `#[tool(requires_approval)]`: an agent loop asks its approver before every call.
    #[must_use]
    pub const fn requires_approval(&self) -> bool {
        self.options.requires_approval
    }

    /// The JSON Schema of the tool's structured output, for tools returning
    /// [`Structured`](crate::Structured) (MCP `outputSchema`).
    #[must_use]
    pub fn output_schema(&'static self) -> Option<&'static str> {
        self.output_schema.get_or_init(|| self.output.map(|schema| to_json_output(schema).into_boxed_str())).as_deref()
    }

    /// The parameters in `dialect`, written from the compile-time tree on first use, or why
    /// the dialect cannot express them (a strict dialect and a map, say). What a provider
    /// sends in each dialect is [`provider`](crate::provider)'s to decide.
    ///
    /// # Errors
    /// The reason `dialect` has no form of this schema.
    pub fn parameters_in(&'static self, dialect: Dialect) -> Result<&'static str, &'static str> {
        if dialect == Dialect::JsonSchema {
            return Ok(self.parameters_json());
        }
        let texts = self.dialects.get_or_init(|| {
            [Dialect::OpenAiStrict, Dialect::AnthropicStrict, Dialect::GeminiParameters].map(|dialect| {
                match dialect.strict_problem(self.schema) {
                    None => Ok(to_json_in(self.schema, dialect).into_boxed_str()),
                    Some(problem) => Err(problem),
                }
            })
        });
        let text = &texts[dialect.index() - 1];
        text.as_deref().map_err(|problem| *problem)
    }
}

impl core::fmt::Debug for ToolDef {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ToolDef")
            .field("name", &self.name)
            .field("rust_path", &self.rust_path)
            .field("async", &self.handler.is_async())
            .finish_non_exhaustive()
    }
}

/// Whether a call may run as an MCP task (the `io.modelcontextprotocol/tasks` extension,
/// SEP-2663): answered at once with a task the client follows with `tasks/get`, while the tool
/// runs in the background. The server decides per call; the client must have declared the
/// extension for the request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TaskSupport {
    /// Never a task: every call is answered when the tool returns (the default).
    #[default]
    Forbidden,
    /// A task when the client declared the extension; an ordinary call otherwise.
    Optional,
    /// Only as a task: a client that did not declare the extension is refused (`-32021`,
    /// missing required client capability).
    Required,
}

/// What a tool says about its behaviour, from `#[tool(read_only, destructive = false,
/// idempotent, open_world = false)]`; `None` leaves the MCP default. Built with
/// [`Annotations::new`] and one method per hint (`Annotations::new().read_only(true)`), so
/// that hints MCP adds can be added here.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Annotations {
    /// `readOnlyHint`: it changes nothing.
    pub read_only: Option<bool>,
    /// `destructiveHint`: its changes may destroy data.
    pub destructive: Option<bool>,
    /// `idempotentHint`: calling it twice with the same arguments does no more.
    pub idempotent: Option<bool>,
    /// `openWorldHint`: it reaches outside systems.
    pub open_world: Option<bool>,
}

impl Annotations {
    /// No hint: every one is left to the MCP default.
    #[must_use]
    pub const fn new() -> Self {
        Annotations { read_only: None, destructive: None, idempotent: None, open_world: None }
    }

    /// `readOnlyHint`.
    #[must_use]
    pub const fn read_only(mut self, hint: bool) -> Self {
        self.read_only = Some(hint);
        self
    }

    /// `destructiveHint`.
    #[must_use]
    pub const fn destructive(mut self, hint: bool) -> Self {
        self.destructive = Some(hint);
        self
    }

    /// `idempotentHint`.
    #[must_use]
    pub const fn idempotent(mut self, hint: bool) -> Self {
        self.idempotent = Some(hint);
        self
    }

    /// `openWorldHint`.
    #[must_use]
    pub const fn open_world(mut self, hint: bool) -> Self {
        self.open_world = Some(hint);
        self
    }

    /// Whether no hint is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Annotations::default()
    }
}

/// A tool's dispatch shim: decode, validate, call. Written by `#[tool]`; not for
/// hand-written code.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Handler {
    /// A plain `fn`.
    Sync(SyncHandler),
    /// An `async fn`; the shim decodes at once and returns the call as a future.
    Async(AsyncHandler),
    /// A plain method of a `#[tools]` block, called on the receiver its entry holds.
    SyncMethod(SyncMethodHandler),
    /// An `async` method of a `#[tools]` block.
    AsyncMethod(AsyncMethodHandler),
}

impl Handler {
    /// Whether the shim needs a receiver: a method of a `#[tools]` block.
    #[must_use]
    pub const fn is_method(&self) -> bool {
        matches!(self, Handler::SyncMethod(_) | Handler::AsyncMethod(_))
    }

    /// Whether the tool is an `async fn`.
    #[must_use]
    pub const fn is_async(&self) -> bool {
        matches!(self, Handler::Async(_) | Handler::AsyncMethod(_))
    }
}

/// The shim of a plain `fn`.
#[doc(hidden)]
pub type SyncHandler = fn(&ToolContext, Arguments<'_>, &DecodeOptions) -> Result<ToolOutput, ToolError>;

/// The shim of an `async fn`.
#[doc(hidden)]
pub type AsyncHandler = for<'a> fn(&'a ToolContext, Arguments<'a>, &'a DecodeOptions) -> ToolFuture<'a>;

/// The receiver a method's shim is handed: the value given to
/// [`Registry::add_all`](crate::Registry::add_all), shared by every call.
#[doc(hidden)]
pub type Receiver = dyn core::any::Any + Send + Sync;

/// The shim of a plain method.
#[doc(hidden)]
pub type SyncMethodHandler =
    fn(&Receiver, &ToolContext, Arguments<'_>, &DecodeOptions) -> Result<ToolOutput, ToolError>;

/// The shim of an `async` method.
#[doc(hidden)]
pub type AsyncMethodHandler =
    for<'a> fn(&'a Receiver, &'a ToolContext, Arguments<'a>, &'a DecodeOptions) -> ToolFuture<'a>;

/// A generated tool type (`GetWeatherTool` for `fn get_weather`), for explicit registries.
pub trait Tool {
    /// The tool's definition.
    fn def(&self) -> &'static ToolDef;
}

impl Tool for &'static ToolDef {
    fn def(&self) -> &'static ToolDef {
        self
    }
}
