//! [`Api`]: the conversation shapes this crate speaks, each answered by one provider module.
//! The one `match` from an API to its module is [`Api::wire`]; everything else asks the
//! [`Wire`] it gives.

use serde_json::Value;

use super::wire::Wire;
use super::{CallResult, ModelTurn, ResponseError, StreamReader, ToolChoice};
use super::{anthropic, gemini, openai};
use crate::error::ToolError;
use crate::registry::Registry;
use crate::schema::Schema;

/// The conversation shapes the runner speaks; serialized as `openai_chat`,
/// `openai_responses`, `anthropic`, `gemini`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum Api {
    /// `OpenAI` Chat Completions (and every compatible server: Ollama, vLLM, `llama.cpp`, `OpenRouter`).
    #[serde(rename = "openai_chat")]
    OpenAiChat,
    /// `OpenAI` Responses.
    #[serde(rename = "openai_responses")]
    OpenAiResponses,
    /// Anthropic Messages.
    #[serde(rename = "anthropic")]
    Anthropic,
    /// Gemini `generateContent`.
    #[serde(rename = "gemini")]
    Gemini,
}

impl Api {
    /// Every API, in declaration order.
    pub const ALL: [Api; 4] = [Api::OpenAiChat, Api::OpenAiResponses, Api::Anthropic, Api::Gemini];

    /// The provider module that speaks this API.
    pub(crate) fn wire(self) -> &'static dyn Wire {
        match self {
            Api::OpenAiChat => &openai::Chat,
            Api::OpenAiResponses => &openai::Responses,
            Api::Anthropic => &anthropic::Messages,
            Api::Gemini => &gemini::Generate,
        }
    }

    /// The provider's name in the OpenTelemetry `GenAI` conventions (`gen_ai.provider.name`):
    /// `openai`, `anthropic`, `gcp.gemini`.
    #[must_use]
    pub fn provider_name(self) -> &'static str {
        self.wire().provider_name()
    }

    /// A user message of text.
    #[must_use]
    pub fn user(self, text: &str) -> Value {
        self.wire().user(text)
    }

    /// The items answering a turn's calls, one result per call, in call order.
    #[must_use]
    pub fn results(self, results: &[CallResult]) -> Vec<Value> {
        self.wire().results(results)
    }

    /// The items of [`Api::results`] for several calls, from each call's own items: what
    /// `results` gives for all of them at once. A durable run journals each call's items on
    /// its own and joins them after the batch.
    #[must_use]
    pub fn join_results(self, per_call: Vec<Vec<Value>>) -> Vec<Value> {
        self.wire().join_results(per_call)
    }

    /// Sets the argument text of the call `id` in a turn's history `items`.
    #[cfg(feature = "agent")]
    pub(crate) fn mend_arguments(self, items: &mut [Value], id: &str, arguments: &str) {
        self.wire().mend_arguments(items, id, arguments);
    }

    /// Adds `note` to the description of the tool `name` in a tool list of this API.
    #[cfg(feature = "agent")]
    pub(crate) fn add_to_description(self, tools: &mut Value, name: &str, note: &str) {
        self.wire().add_to_description(tools, name, note);
    }

    /// The tool list for a request.
    #[must_use]
    pub fn tools(self, registry: &Registry, strict_by_default: bool) -> Value {
        self.wire().tools(registry, strict_by_default).to_value()
    }

    /// The tool choice for a request.
    ///
    /// # Errors
    /// [`ToolError::UnknownTool`] when the choice names a tool the registry lacks;
    /// [`ToolError::NoTools`] when it asks for a call and the registry is empty.
    pub fn tool_choice(self, choice: &ToolChoice, registry: &Registry) -> Result<Value, ToolError> {
        self.wire().tool_choice(choice, registry)
    }

    /// A provider's (non-streamed) response as a turn.
    ///
    /// # Errors
    /// A [`ResponseError`] when the response is not the documented shape.
    pub fn turn(self, response: &Value) -> Result<ModelTurn, ResponseError> {
        self.wire().turn(response)
    }

    /// A reader of this API's streamed responses (server-sent events), which folds them into
    /// the turn [`Api::turn`] reads from the whole response.
    #[must_use]
    pub fn stream(self) -> Box<dyn StreamReader> {
        self.wire().stream()
    }

    /// The request fields asking this API's structured-output mode for an answer of `schema`,
    /// named `name` (strict where the provider's strict dialect can state the schema):
    /// `response_format` (Chat), `text.format` (Responses), `output_config.format`
    /// (Anthropic), `generationConfig.responseSchema` (Gemini).
    #[must_use]
    pub fn answer_format(self, schema: &Schema, name: &str) -> Value {
        self.wire().answer_format(schema, name)
    }
}
