//! A model's turn and the request that asks for one, in terms every provider shares: what
//! each provider module reads a response into ([`ModelTurn`]) and builds a request body from
//! ([`ModelRequest`]).

use serde_json::{Map, Value, json};

use super::{Sampling, ToolCall};
use crate::render::{Dialect, to_json_in};
use crate::schema::Schema;

/// One request to a model: [`ModelRequest::new`], then the `with_*` methods.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ModelRequest<'a> {
    /// Instructions for the whole conversation.
    pub system: Option<&'a str>,
    /// The conversation so far, in the model's [`Api`](super::Api) shape.
    pub history: &'a [Value],
    /// The tool list in the model's dialect; `None` when the model must answer without tools.
    pub tools: Option<&'a Value>,
    /// The tool choice in the model's dialect.
    pub tool_choice: Option<&'a Value>,
    /// The form the answer must take ([`Api::answer_format`](super::Api::answer_format)):
    /// request fields in the API's shape (`response_format`, `text`, `output_config`,
    /// `generationConfig`), merged into the body.
    pub output: Option<&'a Value>,
    /// How the model samples the turn; its output limit wins over the client's.
    pub sampling: Option<&'a Sampling>,
}

impl<'a> ModelRequest<'a> {
    /// A request for the next turn of `history`, with no tools and no system prompt.
    #[must_use]
    pub fn new(history: &'a [Value]) -> Self {
        ModelRequest { system: None, history, tools: None, tool_choice: None, output: None, sampling: None }
    }

    /// Instructions for the whole conversation.
    #[must_use]
    pub fn with_system(mut self, system: &'a str) -> Self {
        self.system = Some(system);
        self
    }

    /// The tool list in the model's dialect, and the tool choice if any.
    #[must_use]
    pub fn with_tools(mut self, tools: &'a Value, tool_choice: Option<&'a Value>) -> Self {
        self.tools = Some(tools);
        self.tool_choice = tool_choice;
        self
    }

    /// The form the answer must take, as request fields in the API's shape.
    #[must_use]
    pub fn with_output(mut self, output: &'a Value) -> Self {
        self.output = Some(output);
        self
    }

    /// How the model samples the turn.
    #[must_use]
    pub fn with_sampling(mut self, sampling: &'a Sampling) -> Self {
        self.sampling = Some(sampling);
        self
    }
}

/// What the model answered.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct ModelTurn {
    /// Its text.
    pub text: String,
    /// The tool calls it made, in order.
    pub calls: Vec<ToolCall>,
    /// Why it stopped.
    pub stop: StopReason,
    /// The tokens it used.
    pub usage: Usage,
    /// Its turn as history items, in the [`Api`](super::Api) shape (the assistant message
    /// with its tool calls).
    pub items: Vec<Value>,
    /// What it wrote while it reasoned, where the API shows it: Anthropic's thinking blocks,
    /// the Responses API's reasoning summaries, Gemini's thought parts, the
    /// `reasoning_content` of Chat Completions servers that send it (`llama.cpp`, vLLM,
    /// `DeepSeek`). Empty otherwise; never part of [`ModelTurn::text`].
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reasoning: String,
}

impl ModelTurn {
    /// A turn that stopped for `stop`, its history `items` in the API's shape; text, calls
    /// and usage are added with the `with_*` methods.
    #[must_use]
    pub fn new(stop: StopReason, items: Vec<Value>) -> Self {
        ModelTurn {
            text: String::new(),
            calls: Vec::new(),
            stop,
            usage: Usage::default(),
            items,
            reasoning: String::new(),
        }
    }

    /// Its text.
    #[must_use]
    pub fn with_text(mut self, text: impl Into<String>) -> Self {
        self.text = text.into();
        self
    }

    /// What it wrote while it reasoned.
    #[must_use]
    pub fn with_reasoning(mut self, reasoning: impl Into<String>) -> Self {
        self.reasoning = reasoning.into();
        self
    }

    /// Its tool calls, in order.
    #[must_use]
    pub fn with_calls(mut self, calls: Vec<ToolCall>) -> Self {
        self.calls = calls;
        self
    }

    /// The tokens it used.
    #[must_use]
    pub fn with_usage(mut self, usage: Usage) -> Self {
        self.usage = usage;
        self
    }
}

/// Why a model's turn ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum StopReason {
    /// It finished its answer.
    EndTurn,
    /// It asked for tool calls.
    ToolUse,
    /// It ran out of tokens.
    MaxTokens,
    /// It refused, or a filter stopped it.
    Refusal,
    /// Another reason, as the provider named it.
    Other(String),
}

impl StopReason {
    /// The reason a provider gave (`finish_reason`, `stop_reason`, the Responses API's
    /// `incomplete_details.reason` or `status`, `finishReason`); a turn with calls stopped for
    /// them, whatever it says, unless it was cut off at the output limit (its last call may be
    /// incomplete) or refused or stopped by a filter (its calls must not run).
    pub(crate) fn of(reason: Option<&str>, calls: bool) -> StopReason {
        match reason {
            Some(reason) if REFUSALS.contains(&reason) => StopReason::Refusal,
            Some("length" | "max_tokens" | "MAX_TOKENS" | "max_output_tokens" | "incomplete") => StopReason::MaxTokens,
            _ if calls => StopReason::ToolUse,
            None | Some("stop" | "end_turn" | "STOP" | "completed" | "stop_sequence") => StopReason::EndTurn,
            Some("tool_calls" | "tool_use") => StopReason::ToolUse,
            Some(other) => StopReason::Other(other.to_owned()),
        }
    }
}

/// The reasons the four APIs give for a turn refused or stopped by a content filter: Chat
/// Completions' and Responses' `content_filter` (and a `refusal` in the message), Anthropic's
/// `refusal`, Gemini's safety, recitation and blocklist stops.
const REFUSALS: &[&str] = &[
    "content_filter",
    "refusal",
    "SAFETY",
    "RECITATION",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "IMAGE_SAFETY",
    "IMAGE_PROHIBITED_CONTENT",
    "IMAGE_RECITATION",
];

impl StopReason {}

/// Tokens used by one or more model calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Usage {
    /// Tokens read.
    pub input_tokens: u64,
    /// Tokens written.
    pub output_tokens: u64,
}

impl Usage {
    /// `input` tokens read and `output` tokens written.
    #[must_use]
    pub const fn new(input: u64, output: u64) -> Usage {
        Usage { input_tokens: input, output_tokens: output }
    }

    /// The counts at two pointers into a response, 0 where absent.
    pub(crate) fn at(response: &Value, input: &str, output: &str) -> Usage {
        let tokens = |pointer: &str| response.pointer(pointer).and_then(Value::as_u64).unwrap_or(0);
        Usage { input_tokens: tokens(input), output_tokens: tokens(output) }
    }
}

impl core::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// How a request is sent beyond what [`ModelRequest`] holds: the client's settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Envelope<'a> {
    /// The model's name.
    pub(crate) model: &'a str,
    /// The most tokens per turn, when set.
    pub(crate) max_tokens: Option<u32>,
    /// Whether the response streams.
    pub(crate) stream: bool,
}

/// Puts `fields` into `body`, merging an object both have (Gemini's `generationConfig`, which
/// may already hold `maxOutputTokens`).
#[cfg_attr(not(feature = "clients"), expect(dead_code, reason = "read by the HTTP client (feature `clients`)"))]
pub(crate) fn merge_fields(body: &mut Map<String, Value>, fields: &Map<String, Value>) {
    for (key, value) in fields {
        match (body.get_mut(key), value) {
            (Some(Value::Object(existing)), Value::Object(more)) => {
                existing.extend(more.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            _ => {
                body.insert(key.clone(), value.clone());
            }
        }
    }
}

/// `tools` and, with them, `tool_choice`: the members OpenAI and Anthropic share; and
/// whether calls may come several to a turn ([`Sampling::parallel_tool_calls`](super::Sampling::parallel_tool_calls)),
/// in `OpenAI`'s member or Anthropic's tool choice.
pub(crate) fn put_tools(body: &mut Map<String, Value>, request: &ModelRequest<'_>, anthropic: bool) {
    let Some(tools) = request.tools else { return };
    body.insert("tools".to_owned(), tools.clone());
    if let Some(choice) = request.tool_choice {
        body.insert("tool_choice".to_owned(), choice.clone());
    }
    let Some(parallel) = request.sampling.and_then(|sampling| sampling.parallel_tool_calls) else { return };
    if !anthropic {
        body.insert("parallel_tool_calls".to_owned(), json!(parallel));
    } else if !parallel {
        // Anthropic allows several calls unless its tool choice says otherwise.
        let choice = body.entry("tool_choice").or_insert_with(|| json!({"type": "auto"}));
        if let Some(choice) = choice.as_object_mut() {
            choice.insert("disable_parallel_tool_use".to_owned(), json!(true));
        }
    }
}

/// `schema` as an answer's schema: in `strict` with `true` when that dialect can state it,
/// in plain JSON Schema with `false` otherwise.
pub(crate) fn answer_schema(schema: &Schema, strict: Dialect) -> (Value, bool) {
    let strict = strict_allowed(schema, strict);
    (rendered(schema, strict.unwrap_or(Dialect::JsonSchema)), strict.is_some())
}

fn strict_allowed(schema: &Schema, dialect: Dialect) -> Option<Dialect> {
    dialect.strict_problem(schema).is_none().then_some(dialect)
}

/// `schema` in `dialect`, as a value.
pub(crate) fn rendered(schema: &Schema, dialect: Dialect) -> Value {
    serde_json::from_str(&to_json_in(schema, dialect)).unwrap_or_else(|_| json!({"type": "object"}))
}
