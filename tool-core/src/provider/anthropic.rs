//! Anthropic Messages: `tools[].input_schema`, `tool_use` blocks (arguments as an object,
//! or streamed as `input_json_delta` fragments), and `tool_result` blocks with `is_error`,
//! placed first in the user message.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{
    CallArguments, CallResult, ObjectWriter, ResponseError, SchemaFallback, ToolCall, ToolChoice, ToolList, malformed,
    strict_choice, string_at, tool_array,
};
use crate::content::{Content, Resource, ResourceContents};
use crate::error::ToolError;
use crate::registry::{Entry, Registry};
use crate::render::Dialect;

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
                arguments: CallArguments::Value(
                    block.get("input").cloned().ok_or_else(|| malformed("a tool_use has no input"))?,
                ),
            })
        })
        .collect()
}

/// Accumulates a streamed message's `tool_use` blocks: `content_block_start` gives the id
/// and name, `input_json_delta` events the argument text.
#[derive(Debug, Default, Clone)]
pub struct MessageStream {
    blocks: BTreeMap<u64, (String, String, String)>,
}

impl MessageStream {
    /// An empty accumulator.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one server-sent event's data.
    ///
    /// # Errors
    /// A [`ResponseError`] when a tool block event has no `index`, or its start no id or name.
    pub fn push(&mut self, event: &Value) -> Result<(), ResponseError> {
        let kind = event.get("type").and_then(Value::as_str);
        let index = || {
            event.get("index").and_then(Value::as_u64).ok_or_else(|| malformed("a content block event has no index"))
        };
        match kind {
            Some("content_block_start")
                if event.pointer("/content_block/type").and_then(Value::as_str) == Some("tool_use") =>
            {
                let id = string_at(event, "/content_block/id")?.to_owned();
                let name = string_at(event, "/content_block/name")?.to_owned();
                self.blocks.insert(index()?, (id, name, String::new()));
            }
            Some("content_block_delta")
                if event.pointer("/delta/type").and_then(Value::as_str) == Some("input_json_delta") =>
            {
                let part = string_at(event, "/delta/partial_json")?;
                if let Some((_, _, text)) = self.blocks.get_mut(&index()?) {
                    text.push_str(part);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The complete calls, in block order; a block with no argument text takes `{}`.
    #[must_use]
    pub fn finish(self) -> Vec<ToolCall> {
        self.blocks
            .into_values()
            .map(|(id, name, text)| {
                let text = if text.trim().is_empty() { "{}".to_owned() } else { text };
                ToolCall { id, name, arguments: CallArguments::Text(text) }
            })
            .collect()
    }
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
    match content {
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
