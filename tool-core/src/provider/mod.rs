//! Speaking each provider's dialect: the request's tool list, the tool calls in a response,
//! and the messages that answer them, for OpenAI (Chat Completions and Responses),
//! Anthropic Messages, Gemini and MCP; for each model [`Api`], whole and streamed turns and
//! the structured-output fields. Each API's wire lives in its own module, and [`Api`] is
//! the one place that picks the module. Users bring their own HTTP client; nothing here
//! touches the network.
//!
//! Every dialect's schema comes from the compile-time tree ([`parameters`]); whatever a
//! dialect drops is still enforced when [`run_calls`] dispatches.
//!
#![doc = include_str!("../../docs/providers.md")]

pub mod anthropic;
mod api;
mod arguments;
pub mod gemini;
pub mod mcp_json;
pub mod openai;
mod parameters;
mod sampling;
mod stream;
mod turn;
mod wire;

use core::fmt;

use serde_json::Value;

pub use api::Api;
pub use arguments::{ArgumentsMode, ParsedArguments, parse_arguments};
pub use parameters::{StrictChoice, parameters, strict_choice};
pub use sampling::Sampling;
pub(crate) use sampling::SamplingMembers;
#[cfg(feature = "agent")]
pub(crate) use stream::whole_object;
pub use stream::{Delta, StreamReader};
#[cfg(feature = "clients")]
pub(crate) use turn::{Envelope, merge_fields};
pub use turn::{ModelRequest, ModelTurn, StopReason, Usage};

use crate::context::ToolContext;
pub use crate::dispatch::Arguments;
use crate::dispatch::ToolFuture;
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::registry::{Entry, Registry};
pub(crate) use crate::render::json_text::ObjectWriter;

/// A tool call a model made.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct ToolCall {
    /// The provider's id for the call (generated for Gemini when it sends none).
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments as sent: text (OpenAI) or an object (the others).
    pub arguments: Arguments<'static>,
}

impl ToolCall {
    /// The call `id` of the tool `name`, with its `arguments` as they arrived.
    #[must_use]
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: impl Into<Arguments<'static>>) -> Self {
        ToolCall { id: id.into(), name: name.into(), arguments: arguments.into() }
    }

    /// The call's arguments as `A`, the arguments of the tool named `tool`: for a program
    /// that runs its own loop and dispatches by hand. The call must name `tool`, and its
    /// arguments are validated and decoded as a registry's dispatch does, the error naming
    /// the tool (what the model called), not the Rust type.
    ///
    /// ```
    /// use tool_core::ToolArgs;
    /// use tool_core::dispatch::DecodeOptions;
    /// use tool_core::provider::ToolCall;
    ///
    /// #[derive(ToolArgs)]
    /// struct Weather {
    ///     #[param(maximum = 10)]
    ///     days: u8,
    /// }
    ///
    /// let call = ToolCall::new("call_1", "get_weather", r#"{"days": 3}"#.to_owned());
    /// assert_eq!(call.decode::<Weather>("get_weather", &DecodeOptions::default())?.days, 3);
    ///
    /// let wrong = ToolCall::new("call_2", "get_weather", r#"{"days": 30}"#.to_owned());
    /// let error = wrong.decode::<Weather>("get_weather", &DecodeOptions::default()).err().unwrap();
    /// assert!(error.to_string().starts_with("invalid arguments for tool \"get_weather\""));
    /// assert!(call.decode::<Weather>("get_time", &DecodeOptions::default()).is_err());
    /// # Ok::<(), tool_core::ToolError>(())
    /// ```
    ///
    /// # Errors
    /// [`ToolError::UnknownTool`] when the call names another tool; otherwise as
    /// [`dispatch::decode`](crate::dispatch::decode).
    pub fn decode<A: crate::param::ToolArgs>(
        &self,
        tool: &str,
        options: &crate::dispatch::DecodeOptions,
    ) -> Result<A, ToolError> {
        if self.name != tool {
            return Err(ToolError::UnknownTool { name: self.name.clone(), available: vec![tool.to_owned()] });
        }
        crate::dispatch::decode::<A>(Arguments::Text(self.arguments.to_text()), options).map_err(|error| match error {
            ToolError::InvalidArguments { violations, .. } => {
                ToolError::InvalidArguments { tool: tool.to_owned(), violations }
            }
            other => other,
        })
    }
}

/// One call's answer.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct CallResult {
    /// The id of the call answered.
    pub id: String,
    /// The tool called.
    pub name: String,
    /// What the tool returned, or why it did not run or failed.
    pub outcome: Result<ToolOutput, ToolError>,
}

impl CallResult {
    /// The answer to the call `id` of the tool `name`.
    #[must_use]
    pub fn new(id: impl Into<String>, name: impl Into<String>, outcome: Result<ToolOutput, ToolError>) -> Self {
        CallResult { id: id.into(), name: name.into(), outcome }
    }

    /// The text the model reads: the output ([`ToolOutput::to_text`]), or the error's
    /// explanation.
    #[must_use]
    pub fn text(&self) -> String {
        match &self.outcome {
            Ok(output) => output.to_text().into_owned(),
            Err(error) => error.to_string(),
        }
    }

    /// Whether the call failed in any way.
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.outcome.is_err()
    }
}

/// A provider response that does not have the documented shape.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResponseError {
    /// What is missing or malformed, with its JSON pointer.
    pub message: String,
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed provider response: {}", self.message)
    }
}

impl std::error::Error for ResponseError {}

pub(crate) fn malformed(message: impl Into<String>) -> ResponseError {
    ResponseError { message: message.into() }
}

/// A string field at `pointer`, or an error naming it.
pub(crate) fn string_at<'v>(value: &'v Value, pointer: &str) -> Result<&'v str, ResponseError> {
    value.pointer(pointer).and_then(Value::as_str).ok_or_else(|| malformed(format!("no string at {pointer}")))
}

/// `first`'s items (one message answering a batch) with the `key` array (`content`, `parts`)
/// of each message in `per_call` appended, in order.
pub(crate) fn join_in_one(mut first: Vec<Value>, key: &str, per_call: Vec<Vec<Value>>) -> Vec<Value> {
    for message in per_call.into_iter().flatten() {
        if let (Some(Value::Array(all)), Some(Value::Array(more))) =
            (first.first_mut().and_then(|first| first.get_mut(key)), message.get(key))
        {
            all.extend(more.iter().cloned());
        }
    }
    first
}

/// Runs `calls` through `registry`, one result per call, in call order. Each call gets its
/// own context (the registry's state and the call's id); async tools run concurrently, on
/// whatever executor awaits this, and plain tools run inline. A call whose argument text is
/// only partial or invalid JSON is never run; it gets an error result that says so.
pub async fn run_calls(registry: &Registry, calls: &[ToolCall]) -> Vec<CallResult> {
    let contexts: Vec<ToolContext> = calls.iter().map(|call| registry.context().with_call_id(&call.id)).collect();
    let outcomes = futures_util::future::join_all(
        calls.iter().zip(&contexts).map(|(call, context)| start_call(registry, context, call)),
    )
    .await;
    calls
        .iter()
        .zip(outcomes)
        .map(|(call, outcome)| CallResult { id: call.id.clone(), name: call.name.clone(), outcome })
        .collect()
}

/// Runs one call with the given context (which should carry the call's id), as
/// [`run_calls`] does for each.
pub async fn run_call(registry: &Registry, context: &ToolContext, call: &ToolCall) -> CallResult {
    let outcome = start_call(registry, context, call).await;
    CallResult { id: call.id.clone(), name: call.name.clone(), outcome }
}

/// Starts a call: its arguments read as the provider sent them, the dispatch future.
fn start_call<'a>(registry: &'a Registry, context: &'a ToolContext, call: &'a ToolCall) -> ToolFuture<'a> {
    match arguments_of(call) {
        Ok(arguments) => registry.call_async(context, &call.name, arguments),
        Err(error) => crate::dispatch::ready(Err(error)),
    }
}

/// [`arguments_of`], owned, for a call that outlives the model's turn.
#[cfg(feature = "agent")]
pub(crate) fn owned_arguments(call: &ToolCall) -> Result<Arguments<'static>, ToolError> {
    arguments_of(call).map(Arguments::into_owned)
}

/// A call's arguments as dispatch takes them: text as sent when it is valid JSON, the
/// repaired value when it needed repair (a Markdown fence, a trailing comma); partial or
/// invalid text is an error, and the call is never run.
fn arguments_of(call: &ToolCall) -> Result<Arguments<'_>, ToolError> {
    match &call.arguments {
        Arguments::Value(value) => Ok(Arguments::Value(value.clone())),
        Arguments::Text(text) => {
            let parsed = parse_arguments(text);
            match (parsed.mode, parsed.value) {
                (ArgumentsMode::Strict, _) => Ok(Arguments::Text(std::borrow::Cow::Borrowed(text))),
                (ArgumentsMode::Repaired, Some(value)) => Ok(Arguments::Value(value)),
                _ => Err(ToolError::InvalidJson {
                    message: parsed.error.unwrap_or_else(|| "the arguments are not JSON".to_owned()),
                }),
            }
        }
    }
}

/// A tool whose schema the request's dialect could not carry as wanted, and why: strict mode
/// that its schema has no form for (it is sent non-strict), or what Gemini's `parameters`
/// leave out. Dispatch enforces the whole schema either way.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SchemaFallback {
    /// The tool.
    pub tool: String,
    /// What could not be carried, and what was done instead.
    pub reason: &'static str,
}

/// A rendered tool list, with the tools whose schema the dialect could not carry whole.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolList {
    /// The JSON array to put in the request.
    pub json: String,
    /// Tools whose strict form was wanted but impossible (sent non-strict), or whose schema
    /// lost keywords in the dialect.
    pub fallbacks: Vec<SchemaFallback>,
}

impl ToolList {
    /// The list as a `serde_json::Value`, for request bodies built with `json!` or a typed
    /// SDK. It parses the text, which is always valid JSON.
    #[must_use]
    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.json).unwrap_or(Value::Null)
    }
}

impl From<ToolList> for Value {
    fn from(list: ToolList) -> Self {
        list.to_value()
    }
}

/// Renders a JSON array with one element per tool.
pub(crate) fn tool_array<'e>(
    tools: impl IntoIterator<Item = &'e Entry>,
    mut element: impl FnMut(&mut String, &Entry, &mut Vec<SchemaFallback>),
) -> ToolList {
    let mut json = String::from("[");
    let mut fallbacks = Vec::new();
    for (i, entry) in tools.into_iter().enumerate() {
        if i > 0 {
            json.push(',');
        }
        element(&mut json, entry, &mut fallbacks);
    }
    json.push(']');
    ToolList { json, fallbacks }
}

/// Which tools the model may or must call, in every provider's vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolChoice {
    /// The model decides (every provider's default when tools are sent).
    Auto,
    /// No tool calls.
    None,
    /// At least one tool call (OpenAI `required`, Anthropic `any`, Gemini `ANY`).
    Required,
    /// This tool.
    Tool(String),
    /// Only these tools; `required` forces a call among them.
    Allowed {
        /// The tools allowed.
        tools: Vec<String>,
        /// Whether a call is required.
        required: bool,
    },
}

impl ToolChoice {
    /// Checks that every tool it names is in `registry`, and that a choice that asks for a
    /// call has a tool to call.
    ///
    /// # Errors
    /// [`ToolError::NoTools`] for [`ToolChoice::Required`], a tool or a list of tools with an
    /// empty `registry`; [`ToolError::UnknownTool`] for the first name it lacks.
    pub fn ensure_known(&self, registry: &Registry) -> Result<(), ToolError> {
        let asks_for_a_call = !matches!(self, ToolChoice::Auto | ToolChoice::None);
        if asks_for_a_call && registry.is_empty() {
            return Err(ToolError::NoTools);
        }
        match self {
            ToolChoice::Tool(name) => require_tool(registry, name),
            ToolChoice::Allowed { tools, .. } => tools.iter().try_for_each(|name| require_tool(registry, name)),
            ToolChoice::Auto | ToolChoice::None | ToolChoice::Required => Ok(()),
        }
    }
}

/// Checks that a tool named in a tool choice exists.
pub(crate) fn require_tool(registry: &Registry, name: &str) -> Result<(), ToolError> {
    registry.lookup(name).map(|_| ())
}
