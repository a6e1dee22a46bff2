//! [`Wire`]: what a provider module implements once for each API it speaks, and all the
//! agent and the HTTP client ask of it.

use serde_json::{Map, Value};

use super::turn::Envelope;
use super::{CallResult, ModelRequest, ModelTurn, ResponseError, StreamReader, ToolChoice, ToolList};
use crate::error::ToolError;
use crate::registry::Registry;
use crate::schema::Schema;

/// Everything about one API's wire, implemented once in its provider module.
#[cfg_attr(
    not(feature = "clients"),
    expect(dead_code, reason = "the request's URL, headers and body are built by the HTTP client (feature `clients`)")
)]
pub(crate) trait Wire: Sync {
    /// The provider's name in the OpenTelemetry `GenAI` conventions (`gen_ai.provider.name`).
    fn provider_name(&self) -> &'static str;
    /// The prefix of its environment variables, its public base URL and a default model.
    fn defaults(&self) -> (&'static str, &'static str, &'static str);
    /// A user message of text (`{"role": "user", "content": text}` unless the API says
    /// otherwise).
    fn user(&self, text: &str) -> Value {
        serde_json::json!({"role": "user", "content": text})
    }
    /// The items answering a turn's calls, one result per call, in call order.
    fn results(&self, results: &[CallResult]) -> Vec<Value>;
    /// The items of [`Wire::results`] for several calls, from each call's own items.
    fn join_results(&self, per_call: Vec<Vec<Value>>) -> Vec<Value> {
        per_call.into_iter().flatten().collect()
    }
    /// The tool list of a request.
    fn tools(&self, registry: &Registry, strict_by_default: bool) -> ToolList;
    /// The tool choice of a request, its named tools checked against `registry`.
    fn tool_choice(&self, choice: &ToolChoice, registry: &Registry) -> Result<Value, ToolError>;
    /// Sets the argument text of the call `id` in a turn's history `items` to `arguments`
    /// (the model wrote text that is not JSON). Nothing to do where the items hold arguments
    /// as objects.
    fn mend_arguments(&self, items: &mut [Value], id: &str, arguments: &str) {
        let _ = (items, id, arguments);
    }
    /// Adds `note` to the description of the tool `name` in a rendered tool list: where each
    /// element holds `name` and `description` (Responses, Anthropic) unless the API says
    /// otherwise.
    fn add_to_description(&self, tools: &mut Value, name: &str, note: &str) {
        let elements = tools.as_array_mut().into_iter().flatten();
        add_note(elements.filter(|tool| tool["name"] == name), note);
    }
    /// A whole (unstreamed) response as a turn.
    fn turn(&self, response: &Value) -> Result<ModelTurn, ResponseError>;
    /// A reader of its streamed responses.
    fn stream(&self) -> Box<dyn StreamReader>;
    /// The URL of one request.
    fn url(&self, base: &str, model: &str, stream: bool) -> String;
    /// The authentication and version headers.
    fn headers(&self, api_key: Option<&str>) -> Vec<(&'static str, String)>;
    /// The body of one request, without the answer's form.
    fn body(&self, request: &ModelRequest<'_>, envelope: Envelope<'_>) -> Map<String, Value>;
    /// The request fields asking for an answer of `schema`, named `name`.
    fn answer_format(&self, schema: &Schema, name: &str) -> Value;
}

/// Appends `note` to each of `tools`' `description`.
pub(crate) fn add_note<'a>(tools: impl Iterator<Item = &'a mut Value>, note: &str) {
    for tool in tools {
        let description = tool["description"].as_str().unwrap_or_default();
        let joined = if description.is_empty() { note.to_owned() } else { format!("{description}\n\n{note}") };
        tool["description"] = Value::String(joined);
    }
}
