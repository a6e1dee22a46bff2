//! What `#[tool]` produces: a [`ToolDef`] (name, description, compile-time schema JSON and
//! the dispatch shim) and the types the shim speaks ([`Arguments`], [`ToolOutput`]).

pub(crate) mod content;
pub(crate) mod dynamic;
pub(crate) mod output;

use core::fmt;
use core::future::Future;
use core::pin::Pin;

use serde_json::Value;

use std::sync::OnceLock;

use crate::context::ToolContext;
use crate::error::ToolError;
use crate::render::dialect::Dialect;
use crate::render::json_text::ObjectWriter;
use crate::render::{to_json, to_json_in};
use crate::schema::Schema;
use crate::tool::output::ToolOutput;

/// A tool, as `#[tool]` describes it. Its argument schema is a tree built at compile time
/// (a `const`); the texts (the parameters, the definition, each provider dialect, the output
/// schema) are written from that tree on first use and kept. Writing them in `const`
/// evaluation instead cost every build about 30 ms per tool; at run time it is a few
/// microseconds, once.
pub struct ToolDef {
    name: &'static str,
    description: &'static str,
    schema: &'static Schema,
    parameters_json: OnceLock<Box<str>>,
    rust_path: &'static str,
    strict: Option<bool>,
    title: Option<&'static str>,
    annotations: Annotations,
    output: Option<&'static Schema>,
    handler: Handler,
    sequential: bool,
    requires_approval: bool,
    group: Option<&'static str>,
    definition_json: OnceLock<Box<str>>,
    dialects: OnceLock<Dialects>,
    output_schema: OnceLock<Option<Box<str>>>,
}

/// The parts of a [`ToolDef`], as `#[tool]` writes them.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct ToolDefParts {
    pub name: &'static str,
    pub description: &'static str,
    pub schema: &'static Schema,
    pub rust_path: &'static str,
    pub output: Option<&'static Schema>,
    pub handler: Handler,
    pub options: ToolOptions,
}

/// The `#[tool(..)]` keys beside `name`: a tool that sets none names
/// [`ToolOptions::DEFAULT`] rather than spelling out each default.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct ToolOptions {
    pub strict: Option<bool>,
    pub title: Option<&'static str>,
    pub annotations: Annotations,
    pub sequential: bool,
    pub requires_approval: bool,
    pub group: Option<&'static str>,
}

impl ToolOptions {
    /// No key set.
    pub const DEFAULT: ToolOptions = ToolOptions {
        strict: None,
        title: None,
        annotations: Annotations { read_only: None, destructive: None, idempotent: None, open_world: None },
        sequential: false,
        requires_approval: false,
        group: None,
    };
}

/// The parameters to send in a strict-capable dialect, and whether strict mode is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrictChoice<'a> {
    /// The parameters schema text.
    pub parameters: &'a str,
    /// Whether to send `strict: true`.
    pub strict: bool,
    /// Why strict mode was wanted (by default) but not possible for this tool.
    pub fallback: Option<&'static str>,
}

impl ToolDef {
    /// What `#[tool]` emits; not for hand-written code, whose fields may change.
    #[doc(hidden)]
    #[must_use]
    pub const fn __new(parts: ToolDefParts) -> Self {
        let ToolDefParts { name, description, schema, rust_path, output, handler, options } = parts;
        let ToolOptions { strict, title, annotations, sequential, requires_approval, group } = options;
        ToolDef {
            name,
            description,
            schema,
            parameters_json: OnceLock::new(),
            rust_path,
            strict,
            title,
            annotations,
            output,
            handler,
            sequential,
            requires_approval,
            group,
            definition_json: OnceLock::new(),
            dialects: OnceLock::new(),
            output_schema: OnceLock::new(),
        }
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

    /// [`ToolDef::schema`] as JSON Schema text, written on first use.
    #[must_use]
    pub fn parameters_json(&'static self) -> &'static str {
        self.parameters_json.get_or_init(|| to_json(self.schema).into_boxed_str())
    }

    /// `{"name":…,"description":…,"parameters":…}`, spliced from the rendered parameters on
    /// first use.
    #[must_use]
    pub fn definition_json(&'static self) -> &'static str {
        self.definition_json.get_or_init(|| {
            let parameters = self.parameters_json();
            let mut json = String::with_capacity(parameters.len() + self.description.len() + 64);
            ObjectWriter::new(&mut json)
                .string("name", self.name)
                .string("description", self.description)
                .raw("parameters", parameters)
                .end();
            json.into_boxed_str()
        })
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
        self.group
    }

    /// `#[tool(strict)]` (`Some(true)`), `#[tool(strict = false)]` (`Some(false)`), or
    /// neither: the registry's default decides.
    #[must_use]
    pub const fn strict(&self) -> Option<bool> {
        self.strict
    }

    /// A human-readable name, `#[tool(title = "..")]` (MCP `title`).
    #[must_use]
    pub const fn title(&self) -> Option<&'static str> {
        self.title
    }

    /// Hints about the tool's behaviour (MCP `annotations`); untrusted by clients.
    #[must_use]
    pub const fn annotations(&self) -> Annotations {
        self.annotations
    }

    /// The dispatch shim.
    #[must_use]
    pub const fn handler(&self) -> Handler {
        self.handler
    }

    /// `#[tool(sequential)]`: a batch holding a call to this tool runs one call at a time.
    #[must_use]
    pub const fn sequential(&self) -> bool {
        self.sequential
    }

    /// `#[tool(requires_approval)]`: an agent loop asks its approver before every call.
    #[must_use]
    pub const fn requires_approval(&self) -> bool {
        self.requires_approval
    }

    /// The JSON Schema of the tool's structured output, for tools returning
    /// [`Structured`](crate::Structured) (MCP `outputSchema`).
    #[must_use]
    pub fn output_schema(&'static self) -> Option<&'static str> {
        self.output_schema.get_or_init(|| self.output.map(|schema| to_json(schema).into_boxed_str())).as_deref()
    }

    /// The parameters in each provider dialect, rendered from the compile-time tree on
    /// first use.
    #[must_use]
    pub fn dialects(&'static self) -> &'static Dialects {
        self.dialects.get_or_init(|| {
            let strict = |dialect: Dialect| match dialect.strict_problem(self.schema) {
                None => Ok(to_json_in(self.schema, dialect).into_boxed_str()),
                Some(problem) => Err(problem),
            };
            Dialects {
                openai_strict: strict(Dialect::OpenAiStrict),
                anthropic_strict: strict(Dialect::AnthropicStrict),
                gemini_parameters: to_json_in(self.schema, Dialect::GeminiParameters).into_boxed_str(),
                gemini_parameters_loss: crate::provider::gemini::tree_loss(self.schema),
            }
        })
    }

    fn choose(
        &'static self,
        strict_form: Result<&'static str, &'static str>,
        strict_by_default: bool,
    ) -> StrictChoice<'static> {
        let wanted = self.strict.unwrap_or(strict_by_default);
        match (wanted, strict_form) {
            (true, Ok(parameters)) => StrictChoice { parameters, strict: true, fallback: None },
            (true, Err(reason)) => {
                StrictChoice { parameters: self.parameters_json(), strict: false, fallback: Some(reason) }
            }
            (false, _) => StrictChoice { parameters: self.parameters_json(), strict: false, fallback: None },
        }
    }

    /// The `OpenAI` parameters: strict when the tool asks for it (`#[tool(strict)]`), or when
    /// `strict_by_default` and the tool does not opt out and its schema allows it.
    #[must_use]
    pub fn openai_parameters(&'static self, strict_by_default: bool) -> StrictChoice<'static> {
        self.choose(self.dialects().openai_strict(), strict_by_default)
    }

    /// The Anthropic `input_schema`, chosen as [`ToolDef::openai_parameters`] is.
    #[must_use]
    pub fn anthropic_input_schema(&'static self, strict_by_default: bool) -> StrictChoice<'static> {
        self.choose(self.dialects().anthropic_strict(), strict_by_default)
    }
}

impl fmt::Debug for ToolDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDef")
            .field("name", &self.name)
            .field("rust_path", &self.rust_path)
            .field("async", &matches!(self.handler, Handler::Async(_)))
            .finish_non_exhaustive()
    }
}

/// A tool's parameters in the provider dialects that differ from plain JSON Schema.
///
/// A strict dialect is `Err(reason)` when it cannot express the schema (a map, say): such
/// a tool falls back to non-strict, with the reason, unless it asked for strict itself, in
/// which case it did not compile.
#[derive(Debug, Clone)]
pub struct Dialects {
    openai_strict: Result<Box<str>, &'static str>,
    anthropic_strict: Result<Box<str>, &'static str>,
    gemini_parameters: Box<str>,
    gemini_parameters_loss: Option<&'static str>,
}

impl Dialects {
    /// `OpenAI` Structured Outputs (`strict: true`), or why the schema has no such form.
    ///
    /// # Errors
    /// The reason strict mode cannot express the schema (a map, say).
    pub fn openai_strict(&self) -> Result<&str, &'static str> {
        self.openai_strict.as_deref().map_err(|reason| *reason)
    }

    /// Anthropic `strict: true`, or why the schema has no such form.
    ///
    /// # Errors
    /// The reason strict mode cannot express the schema.
    pub fn anthropic_strict(&self) -> Result<&str, &'static str> {
        self.anthropic_strict.as_deref().map_err(|reason| *reason)
    }

    /// Gemini `parameters` (the `OpenAPI` subset).
    #[must_use]
    pub fn gemini_parameters(&self) -> &str {
        &self.gemini_parameters
    }

    /// What [`Dialects::gemini_parameters`] cannot state of the schema (a map's value
    /// schema, `exclusiveMinimum`...), if anything; dispatch still enforces it.
    #[must_use]
    pub fn gemini_parameters_loss(&self) -> Option<&'static str> {
        self.gemini_parameters_loss
    }
}

/// What a tool says about its behaviour, from `#[tool(read_only, destructive = false,
/// idempotent, open_world = false)]`; `None` leaves the MCP default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
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
    /// Whether no hint is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Annotations::default()
    }
}

/// A tool's dispatch shim: decode, validate, call.
#[derive(Debug, Clone, Copy)]
pub enum Handler {
    /// A plain `fn`.
    Sync(SyncHandler),
    /// An `async fn`; the shim decodes at once and returns the call as a future.
    Async(AsyncHandler),
}

/// The shim of a plain `fn`.
pub type SyncHandler = fn(&ToolContext, Arguments<'_>, &DecodeOptions) -> Result<ToolOutput, ToolError>;

/// The shim of an `async fn`.
pub type AsyncHandler = for<'a> fn(&'a ToolContext, Arguments<'a>, &'a DecodeOptions) -> ToolFuture<'a>;

/// The future an async tool call returns.
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = Result<ToolOutput, ToolError>> + Send + 'a>>;

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

/// A tool call's arguments as they arrive: JSON text (`OpenAI` sends a string) or an already
/// parsed value (Anthropic, Gemini and MCP send an object).
#[derive(Debug, Clone)]
pub enum Arguments<'a> {
    /// JSON text.
    Text(&'a str),
    /// A parsed JSON value.
    Value(Value),
}

impl<'a> From<&'a str> for Arguments<'a> {
    fn from(text: &'a str) -> Self {
        Arguments::Text(text)
    }
}

impl<'a> From<&'a String> for Arguments<'a> {
    fn from(text: &'a String) -> Self {
        Arguments::Text(text)
    }
}

impl From<Value> for Arguments<'_> {
    fn from(value: Value) -> Self {
        Arguments::Value(value)
    }
}

/// How arguments are decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Rewrite the common model mistakes (`"3"` for `3`) before validation; see
    /// [`ToolParam::coerce`](crate::ToolParam::coerce). Off by default: dispatch then
    /// accepts exactly what the schema accepts.
    pub lenient: bool,
    /// The largest argument text accepted, in bytes.
    pub max_argument_bytes: usize,
}

impl DecodeOptions {
    /// The default limit on argument text: 1 MiB.
    pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1 << 20;
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions { lenient: false, max_argument_bytes: Self::DEFAULT_MAX_ARGUMENT_BYTES }
    }
}
