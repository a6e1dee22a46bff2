//! Anthropic Messages: `tools[].input_schema`, `tool_use` blocks (arguments as an object,
//! or streamed as `input_json_delta` fragments), and `tool_result` blocks with `is_error`,
//! placed first in the user message.

mod stream;

use serde_json::{Map, Value, json};

pub use stream::MessageStream;

use super::turn::{Envelope, answer_schema, put_tools};
use super::wire::Wire;
use super::{
    Arguments, CallResult, ModelRequest, ModelTurn, ObjectWriter, ResponseError, SamplingMembers, SchemaFallback,
    StopReason, StreamReader, ToolCall, ToolChoice, ToolList, Usage, malformed, strict_choice, string_at, tool_array,
};
use crate::content::{Content, Resource, ResourceContents};
use crate::error::ToolError;
use crate::registry::{Entry, Registry};
use crate::render::Dialect;
use crate::schema::Schema;

/// Where Messages takes each sampling setting: it has no seed.
const SAMPLING: SamplingMembers = SamplingMembers {
    temperature: "temperature",
    top_p: "top_p",
    seed: None,
    max_tokens: "max_tokens",
    stop: Some("stop_sequences"),
};

/// `tools`: `[{"name":…,"description":…,"input_schema":…}]`, with `"strict": true` where
/// the tool asks for it, or where `strict_by_default` and its schema allows it.
pub fn tools<'e>(tools: impl IntoIterator<Item = &'e Entry>, strict_by_default: bool) -> ToolList {
    tool_array(tools, |out, entry, fallbacks| {
        let choice = strict_choice(entry, Dialect::AnthropicStrict, strict_by_default);
        if let Some(reason) = choice.fallback {
            fallbacks.push(SchemaFallback { tool: entry.name().to_owned(), reason });
        }
        let mut object = ObjectWriter::new(out);
        object
            .string("name", entry.name())
            .string("description", entry.description())
            .raw("input_schema", &choice.parameters);
        if choice.strict {
            object.raw("strict", "true");
        }
        object.end();
    })
}

/// The `tool_use` blocks of a message, in order.
///
/// # Errors
/// A [`ResponseError`] naming the first member that is missing or of the wrong type.
pub fn parse_message(message: &Value) -> Result<Vec<ToolCall>, ResponseError> {
    let content = message.get("content").and_then(Value::as_array).ok_or_else(|| malformed("no /content array"))?;
    content
        .iter()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("tool_use"))
        .map(|block| {
            Ok(ToolCall {
                id: string_at(block, "/id")?.to_owned(),
                name: string_at(block, "/name")?.to_owned(),
                arguments: Arguments::Value(
                    block.get("input").cloned().ok_or_else(|| malformed("a tool_use has no input"))?,
                ),
            })
        })
        .collect()
}

/// The `field` of every block of type `kind` in `content`, joined.
fn joined(content: &Value, kind: &str, field: &str) -> String {
    let blocks = content.as_array().into_iter().flatten();
    blocks
        .filter(|block| block.get("type").and_then(Value::as_str) == Some(kind))
        .filter_map(|block| block.get(field).and_then(Value::as_str))
        .collect()
}

/// A message as a turn: its text blocks joined, its `tool_use` blocks, `stop_reason`,
/// `usage`, and the assistant message (every block) for the history.
fn turn(response: &Value) -> Result<ModelTurn, ResponseError> {
    let calls = parse_message(response)?;
    let content = response.get("content").cloned().unwrap_or_else(|| json!([]));
    let text = joined(&content, "text", "text");
    let reasoning = joined(&content, "thinking", "thinking");
    Ok(ModelTurn {
        text,
        reasoning,
        stop: StopReason::of(response.get("stop_reason").and_then(Value::as_str), !calls.is_empty()),
        usage: Usage::at(response, "/usage/input_tokens", "/usage/output_tokens"),
        calls,
        items: vec![json!({"role": "assistant", "content": content})],
    })
}

/// The user message answering a turn: every `tool_result` first, in call order (text before
/// them is a 400), then `text` if any. A text-only result is a string; otherwise its blocks
/// are `text`, `image` (JPEG, PNG, GIF, WebP) and `document` (an embedded PDF) blocks, and
/// what Anthropic cannot take (audio, other media) is described in text.
#[must_use]
pub fn tool_results_message(results: &[CallResult], text: Option<&str>) -> Value {
    let mut content: Vec<Value> = results
        .iter()
        .map(|r| {
            let content = match &r.outcome {
                Ok(output) if !output.is_text_only() => Value::Array(output.content().iter().map(block).collect()),
                _ => Value::String(r.text()),
            };
            json!({"type": "tool_result", "tool_use_id": r.id, "content": content, "is_error": r.is_error()})
        })
        .collect();
    if let Some(text) = text {
        content.push(json!({"type": "text", "text": text}));
    }
    json!({"role": "user", "content": content})
}

/// The image types a `tool_result` may hold.
const IMAGE_TYPES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

fn block(content: &Content) -> Value {
    match content.plain() {
        Content::Image(media) if IMAGE_TYPES.contains(&media.mime_type.as_str()) => json!({
            "type": "image",
            "source": {"type": "base64", "media_type": media.mime_type, "data": media.data}
        }),
        Content::Resource(Resource { mime_type: Some(mime), contents: ResourceContents::Blob(data), .. })
            if mime == "application/pdf" =>
        {
            json!({"type": "document", "source": {"type": "base64", "media_type": mime, "data": data}})
        }
        other => json!({"type": "text", "text": other.describe()}),
    }
}

/// `tool_choice`, its named tools checked against `registry`. Anthropic has no allowed
/// list: for [`ToolChoice::Allowed`] send only those tools, and this gives `any` or `auto`.
///
/// # Errors
/// [`ToolError::UnknownTool`] when a named tool is not in `registry`.
pub fn tool_choice(
    choice: &ToolChoice,
    registry: &Registry,
    disable_parallel_tool_use: bool,
) -> Result<Value, ToolError> {
    choice.ensure_known(registry)?;
    let parallel = json!(disable_parallel_tool_use);
    Ok(match choice {
        ToolChoice::Auto | ToolChoice::Allowed { required: false, .. } => {
            json!({"type": "auto", "disable_parallel_tool_use": parallel})
        }
        ToolChoice::None => json!({"type": "none"}),
        ToolChoice::Required | ToolChoice::Allowed { required: true, .. } => {
            json!({"type": "any", "disable_parallel_tool_use": parallel})
        }
        ToolChoice::Tool(name) => json!({"type": "tool", "name": name, "disable_parallel_tool_use": parallel}),
    })
}

/// The API version every request names.
const VERSION: &str = "2023-06-01";

/// Messages as the agent speaks it.
pub(crate) struct Messages;

impl Wire for Messages {
    fn provider_name(&self) -> &'static str {
        "anthropic"
    }

    fn defaults(&self) -> (&'static str, &'static str, &'static str) {
        ("ANTHROPIC", "https://api.anthropic.com", "claude-sonnet-4-5")
    }

    fn results(&self, results: &[CallResult]) -> Vec<Value> {
        vec![tool_results_message(results, None)]
    }

    fn join_results(&self, per_call: Vec<Vec<Value>>) -> Vec<Value> {
        // A batch is answered by one user message, its blocks in call order.
        super::join_in_one(self.results(&[]), "content", per_call)
    }

    fn tools(&self, registry: &Registry, strict_by_default: bool) -> ToolList {
        tools(registry.in_added_order(), strict_by_default)
    }

    fn tool_choice(&self, choice: &ToolChoice, registry: &Registry) -> Result<Value, ToolError> {
        tool_choice(choice, registry, false)
    }

    fn turn(&self, response: &Value) -> Result<ModelTurn, ResponseError> {
        turn(response)
    }

    fn stream(&self) -> Box<dyn StreamReader> {
        Box::new(MessageStream::new())
    }

    fn url(&self, base: &str, _model: &str, _stream: bool) -> String {
        format!("{base}/v1/messages")
    }

    fn headers(&self, api_key: Option<&str>) -> Vec<(&'static str, String)> {
        let mut headers = vec![("anthropic-version", VERSION.to_owned())];
        if let Some(key) = api_key {
            headers.insert(0, ("x-api-key", key.to_owned()));
        }
        headers
    }

    fn body(&self, request: &ModelRequest<'_>, envelope: Envelope<'_>) -> Map<String, Value> {
        let mut body = Map::new();
        body.insert("model".to_owned(), json!(envelope.model));
        // Required by the API: 4096 unless set.
        SAMPLING.put(&mut body, request.sampling, Some(envelope.max_tokens.unwrap_or(4096)));
        if let Some(system) = request.system {
            body.insert("system".to_owned(), json!(system));
        }
        body.insert("messages".to_owned(), Value::Array(request.history.to_vec()));
        put_tools(&mut body, request, true);
        if envelope.stream {
            body.insert("stream".to_owned(), json!(true));
        }
        body
    }

    /// Messages' structured output is always strict: a schema its strict form cannot state
    /// (a map, say) would be refused, so none is asked for, as `OpenAI`'s falls back to
    /// `strict: false`. The answer is still checked against the whole schema, and a wrong one
    /// goes back with its violations.
    fn answer_format(&self, schema: &Schema, _name: &str) -> Value {
        match answer_schema(schema, Dialect::AnthropicStrict) {
            (schema, true) => json!({"output_config": {"format": {"type": "json_schema", "schema": schema}}}),
            (_, false) => json!({}),
        }
    }
}
