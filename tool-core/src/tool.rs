//! What `#[tool]` produces: a [`ToolDef`] (name, description, compile-time schema JSON and
//! the dispatch shim) and the types the shim speaks ([`Arguments`], [`ToolOutput`]).

use core::fmt;
use core::future::Future;
use core::pin::Pin;

use serde_json::Value;

use crate::context::ToolContext;
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::schema::Schema;

/// A tool, as `#[tool]` describes it; every field is known at compile time.
pub struct ToolDef {
    /// The name the model calls it by.
    pub name: &'static str,
    /// What it does, for the model.
    pub description: &'static str,
    /// The schema tree of its arguments.
    pub schema: &'static Schema,
    /// [`ToolDef::schema`] as JSON Schema text, rendered at compile time.
    pub parameters_json: &'static str,
    /// `{"name":…,"description":…,"parameters":…}`, rendered at compile time.
    pub definition_json: &'static str,
    /// The Rust path of the `fn` (`my_crate::weather::get_weather`), for error messages.
    pub rust_path: &'static str,
    /// The parameters in each provider dialect, rendered at compile time.
    pub dialects: Dialects,
    /// `#[tool(strict)]` (`Some(true)`), `#[tool(strict = false)]` (`Some(false)`), or
    /// neither: the registry's default decides.
    pub strict: Option<bool>,
    /// A human-readable name, `#[tool(title = "..")]` (MCP `title`).
    pub title: Option<&'static str>,
    /// Hints about the tool's behaviour (MCP `annotations`); untrusted by clients.
    pub annotations: Annotations,
    /// The JSON Schema of the tool's structured output, for tools returning
    /// [`Structured`](crate::Structured) (MCP `outputSchema`), rendered at compile time.
    pub output_schema: Option<&'static str>,
    /// The dispatch shim.
    pub handler: Handler,
}

/// The parameters to send in a strict-capable dialect, and whether strict mode is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrictChoice {
    /// The parameters schema text.
    pub parameters: &'static str,
    /// Whether to send `strict: true`.
    pub strict: bool,
    /// Why strict mode was wanted (by default) but not possible for this tool.
    pub fallback: Option<&'static str>,
}

impl ToolDef {
    fn choose(&self, strict_form: Result<&'static str, &'static str>, strict_by_default: bool) -> StrictChoice {
        let wanted = self.strict.unwrap_or(strict_by_default);
        match (wanted, strict_form) {
            (true, Ok(parameters)) => StrictChoice { parameters, strict: true, fallback: None },
            (true, Err(reason)) => {
                StrictChoice { parameters: self.parameters_json, strict: false, fallback: Some(reason) }
            }
            (false, _) => StrictChoice { parameters: self.parameters_json, strict: false, fallback: None },
        }
    }

    /// The `OpenAI` parameters: strict when the tool asks for it (`#[tool(strict)]`), or when
    /// `strict_by_default` and the tool does not opt out and its schema allows it.
    #[must_use]
    pub fn openai_parameters(&self, strict_by_default: bool) -> StrictChoice {
        self.choose(self.dialects.openai_strict, strict_by_default)
    }

    /// The Anthropic `input_schema`, chosen as [`ToolDef::openai_parameters`] is.
    #[must_use]
    pub fn anthropic_input_schema(&self, strict_by_default: bool) -> StrictChoice {
        self.choose(self.dialects.anthropic_strict, strict_by_default)
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
#[derive(Debug, Clone, Copy)]
pub struct Dialects {
    /// `OpenAI` Structured Outputs (`strict: true`).
    pub openai_strict: Result<&'static str, &'static str>,
    /// Anthropic `strict: true`.
    pub anthropic_strict: Result<&'static str, &'static str>,
    /// Gemini `parameters` (the `OpenAPI` subset).
    pub gemini_parameters: &'static str,
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
