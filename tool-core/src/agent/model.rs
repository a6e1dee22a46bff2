//! The [`Model`] abstraction: a conversation, tool definitions and a tool choice in; an
//! assistant turn out ([`ModelTurn`]: text, tool calls, why it stopped, usage, and the items
//! to keep in the history). Each [`Api`] says how its conversation is shaped, through the
//! `provider` module, so the runner keeps the history in the provider's own form.

use core::fmt;
use core::future::Future;
use core::pin::Pin;

use serde_json::{Value, json};

use crate::provider::{self, CallResult, ResponseError, ToolCall, ToolChoice, anthropic, gemini, openai};
use crate::registry::Registry;

/// The conversation shapes the runner speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Api {
    /// `OpenAI` Chat Completions (and every compatible server: Ollama, vLLM, `llama.cpp`, `OpenRouter`).
    OpenAiChat,
    /// `OpenAI` Responses.
    OpenAiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Gemini `generateContent`.
    Gemini,
}

/// Why a model's turn ended.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// Tokens used by one or more model calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Tokens read.
    pub input_tokens: u64,
    /// Tokens written.
    pub output_tokens: u64,
}

impl core::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// What a streaming model has written so far, handed on as it arrives.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Delta<'a> {
    /// More text.
    Text(&'a str),
    /// A tool call as it is being written: everything known of it so far.
    ToolCall {
        /// Its place among the turn's calls, as the stream numbers them.
        index: usize,
        /// Its id (empty until the stream has named it).
        id: &'a str,
        /// The tool (empty until the stream has named it).
        name: &'a str,
        /// The argument text so far.
        arguments: &'a str,
    },
}

/// Where a model hands its [`Delta`]s.
pub type DeltaSink<'a> = &'a (dyn Fn(Delta<'_>) + Send + Sync);

/// One request to a model.
#[derive(Debug, Clone)]
pub struct ModelRequest<'a> {
    /// Instructions for the whole conversation.
    pub system: Option<&'a str>,
    /// The conversation so far, in the model's [`Api`] shape.
    pub history: &'a [Value],
    /// The tool list in the model's dialect; `None` when the model must answer without tools.
    pub tools: Option<&'a Value>,
    /// The tool choice in the model's dialect.
    pub tool_choice: Option<&'a Value>,
    /// The form the answer must take ([`Agent::run_for`](super::Agent::run_for)): request
    /// fields in the API's shape (`response_format`, `text`, `output_config`,
    /// `generationConfig`), merged into the body.
    pub output: Option<&'a Value>,
}

/// What the model answered.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelTurn {
    /// Its text.
    pub text: String,
    /// The tool calls it made, in order.
    pub calls: Vec<ToolCall>,
    /// Why it stopped.
    pub stop: StopReason,
    /// The tokens it used.
    pub usage: Usage,
    /// Its turn as history items, in the [`Api`] shape (the assistant message with its tool
    /// calls).
    pub items: Vec<Value>,
}

/// Why a model gave no turn.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ModelError {
    /// The HTTP request failed or was refused (with the status, when there was one).
    Http {
        /// The status code.
        status: Option<u16>,
        /// The error body or message.
        message: String,
    },
    /// Too many requests, after the retries allowed.
    RateLimited {
        /// How long the provider asked to wait, in seconds.
        retry_after: Option<f64>,
        /// The error body.
        message: String,
    },
    /// The response was not the documented shape.
    Malformed(ResponseError),
    /// A scripted model ran out of responses.
    Exhausted,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::Http { status: Some(status), message } => {
                write!(f, "the model request failed ({status}): {message}")
            }
            ModelError::Http { status: None, message } => write!(f, "the model request failed: {message}"),
            ModelError::RateLimited { retry_after, message } => {
                write!(f, "the model is rate limited")?;
                if let Some(seconds) = retry_after {
                    write!(f, " (retry after {seconds} s)")?;
                }
                write!(f, ": {message}")
            }
            ModelError::Malformed(error) => error.fmt(f),
            ModelError::Exhausted => f.write_str("the scripted model has no more responses"),
        }
    }
}

impl std::error::Error for ModelError {}

impl From<ResponseError> for ModelError {
    fn from(error: ResponseError) -> Self {
        ModelError::Malformed(error)
    }
}

/// The future of [`Model::respond`].
pub type ModelFuture<'a> = Pin<Box<dyn Future<Output = Result<ModelTurn, ModelError>> + Send + 'a>>;

/// Something that answers a conversation: an HTTP client, a scripted replay, your own.
pub trait Model: Send + Sync {
    /// The conversation shape it speaks.
    fn api(&self) -> Api;

    /// One turn. `on_delta` receives text and tool calls as they stream, for models that
    /// stream.
    fn respond<'a>(&'a self, request: ModelRequest<'a>, on_delta: DeltaSink<'a>) -> ModelFuture<'a>;
}

impl<M: Model + ?Sized> Model for Box<M> {
    fn api(&self) -> Api {
        (**self).api()
    }

    fn respond<'a>(&'a self, request: ModelRequest<'a>, on_delta: DeltaSink<'a>) -> ModelFuture<'a> {
        (**self).respond(request, on_delta)
    }
}

impl<M: Model + ?Sized> Model for std::sync::Arc<M> {
    fn api(&self) -> Api {
        (**self).api()
    }

    fn respond<'a>(&'a self, request: ModelRequest<'a>, on_delta: DeltaSink<'a>) -> ModelFuture<'a> {
        (**self).respond(request, on_delta)
    }
}

impl Api {
    /// A user message of text.
    #[must_use]
    pub fn user(self, text: &str) -> Value {
        match self {
            Api::Gemini => json!({"role": "user", "parts": [{"text": text}]}),
            Api::OpenAiChat | Api::OpenAiResponses | Api::Anthropic => json!({"role": "user", "content": text}),
        }
    }

    /// The items answering a turn's calls, one result per call, in call order.
    #[must_use]
    pub fn results(self, results: &[CallResult]) -> Vec<Value> {
        match self {
            Api::OpenAiChat => openai::tool_messages(results),
            Api::OpenAiResponses => openai::function_call_outputs(results),
            Api::Anthropic => vec![anthropic::tool_results_message(results, None)],
            Api::Gemini => vec![gemini::function_responses(results)],
        }
    }

    /// The items of [`Api::results`] for several calls, from each call's own items: what
    /// `results` gives for all of them at once. A durable run journals each call's items on
    /// its own and joins them after the batch.
    #[cfg(feature = "restate")]
    pub(crate) fn join_results(self, per_call: Vec<Vec<Value>>) -> Vec<Value> {
        // Chat and Responses answer each call with items of its own; Anthropic and Gemini
        // answer a whole batch with one user message, its blocks (`content`) or parts
        // (`parts`) in call order.
        let key = match self {
            Api::OpenAiChat | Api::OpenAiResponses => return per_call.into_iter().flatten().collect(),
            Api::Anthropic => "content",
            Api::Gemini => "parts",
        };
        let mut joined = self.results(&[]);
        for message in per_call.into_iter().flatten() {
            if let (Some(Value::Array(all)), Some(Value::Array(more))) =
                (joined.first_mut().and_then(|first| first.get_mut(key)), message.get(key))
            {
                all.extend(more.iter().cloned());
            }
        }
        joined
    }

    /// The tool list for a request.
    ///
    /// # Panics
    /// Never: the rendered lists are JSON by construction.
    #[must_use]
    pub fn tools(self, registry: &Registry, strict_by_default: bool) -> Value {
        let list = match self {
            Api::OpenAiChat => openai::chat_tools(registry.iter(), strict_by_default),
            Api::OpenAiResponses => openai::responses_tools(registry.iter(), strict_by_default),
            Api::Anthropic => anthropic::tools(registry.iter(), strict_by_default),
            Api::Gemini => gemini::tools(registry.iter(), gemini::SchemaField::ParametersJsonSchema),
        };
        serde_json::from_str(&list.json).expect("rendered tool lists are JSON")
    }

    /// The tool choice for a request.
    ///
    /// # Errors
    /// [`ToolError::UnknownTool`](crate::ToolError::UnknownTool) when the choice names a tool
    /// the registry lacks.
    pub fn tool_choice(self, choice: &ToolChoice, registry: &Registry) -> Result<Value, crate::ToolError> {
        match self {
            Api::OpenAiChat => openai::chat_tool_choice(choice, registry),
            Api::OpenAiResponses => openai::responses_tool_choice(choice, registry),
            Api::Anthropic => anthropic::tool_choice(choice, registry, false),
            Api::Gemini => gemini::tool_config(choice, registry),
        }
    }

    /// A provider's (non-streamed) response as a turn.
    ///
    /// # Errors
    /// A [`ResponseError`] when the response is not the documented shape.
    pub fn turn(self, response: &Value) -> Result<ModelTurn, ResponseError> {
        match self {
            Api::OpenAiChat => chat_turn(response),
            Api::OpenAiResponses => responses_turn(response),
            Api::Anthropic => anthropic_turn(response),
            Api::Gemini => gemini_turn(response),
        }
    }
}

fn tokens(response: &Value, pointer: &str) -> u64 {
    response.pointer(pointer).and_then(Value::as_u64).unwrap_or(0)
}

fn stop_of(reason: Option<&str>, calls: bool) -> StopReason {
    match reason {
        _ if calls => StopReason::ToolUse,
        None | Some("stop" | "end_turn" | "STOP" | "completed" | "stop_sequence") => StopReason::EndTurn,
        Some("tool_calls" | "tool_use") => StopReason::ToolUse,
        Some("length" | "max_tokens" | "MAX_TOKENS" | "incomplete") => StopReason::MaxTokens,
        Some("content_filter" | "refusal" | "SAFETY") => StopReason::Refusal,
        Some(other) => StopReason::Other(other.to_owned()),
    }
}

fn chat_turn(response: &Value) -> Result<ModelTurn, ResponseError> {
    let calls = openai::parse_chat_completion(response)?;
    let message =
        response.pointer("/choices/0/message").cloned().ok_or_else(|| provider::malformed("no /choices/0/message"))?;
    Ok(ModelTurn {
        text: message.get("content").and_then(Value::as_str).unwrap_or_default().to_owned(),
        stop: stop_of(response.pointer("/choices/0/finish_reason").and_then(Value::as_str), !calls.is_empty()),
        usage: Usage {
            input_tokens: tokens(response, "/usage/prompt_tokens"),
            output_tokens: tokens(response, "/usage/completion_tokens"),
        },
        calls,
        items: vec![message],
    })
}

fn responses_turn(response: &Value) -> Result<ModelTurn, ResponseError> {
    let calls = openai::parse_responses_output(response)?;
    let output = response.get("output").and_then(Value::as_array).cloned().unwrap_or_default();
    let text = output
        .iter()
        .filter(|item| item.get("type").and_then(Value::as_str) == Some("message"))
        .flat_map(|item| item.get("content").and_then(Value::as_array).into_iter().flatten())
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect();
    Ok(ModelTurn {
        text,
        stop: stop_of(response.get("status").and_then(Value::as_str), !calls.is_empty()),
        usage: Usage {
            input_tokens: tokens(response, "/usage/input_tokens"),
            output_tokens: tokens(response, "/usage/output_tokens"),
        },
        calls,
        items: output,
    })
}

fn anthropic_turn(response: &Value) -> Result<ModelTurn, ResponseError> {
    let calls = anthropic::parse_message(response)?;
    let content = response.get("content").cloned().unwrap_or_else(|| json!([]));
    let text = content
        .as_array()
        .into_iter()
        .flatten()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect();
    Ok(ModelTurn {
        text,
        stop: stop_of(response.get("stop_reason").and_then(Value::as_str), !calls.is_empty()),
        usage: Usage {
            input_tokens: tokens(response, "/usage/input_tokens"),
            output_tokens: tokens(response, "/usage/output_tokens"),
        },
        calls,
        items: vec![json!({"role": "assistant", "content": content})],
    })
}

fn gemini_turn(response: &Value) -> Result<ModelTurn, ResponseError> {
    let calls = gemini::parse_candidate(response)?;
    let content = response
        .pointer("/candidates/0/content")
        .cloned()
        .ok_or_else(|| provider::malformed("no /candidates/0/content"))?;
    let text = content
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect();
    let mut item = content;
    item["role"] = json!("model");
    Ok(ModelTurn {
        text,
        stop: stop_of(response.pointer("/candidates/0/finishReason").and_then(Value::as_str), !calls.is_empty()),
        usage: Usage {
            input_tokens: tokens(response, "/usageMetadata/promptTokenCount"),
            output_tokens: tokens(response, "/usageMetadata/candidatesTokenCount"),
        },
        calls,
        items: vec![item],
    })
}
