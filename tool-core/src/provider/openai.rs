//! OpenAI: Chat Completions (`tools[].function`) and Responses (flat function tools).
//! Arguments arrive as JSON text, which may be malformed; results carry no error flag, so
//! the text says it.

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

fn function_members(
    object: &mut ObjectWriter<'_>,
    entry: &Entry,
    strict_by_default: bool,
    fallbacks: &mut Vec<SchemaFallback>,
) {
    let choice = strict_choice(entry, Dialect::OpenAiStrict, strict_by_default);
    if let Some(reason) = choice.fallback {
        fallbacks.push(SchemaFallback { tool: entry.name().to_owned(), reason });
    }
    object
        .string("name", entry.name())
        .string("description", entry.description())
        .raw("parameters", &choice.parameters)
        .raw("strict", if choice.strict { "true" } else { "false" });
}

/// Chat Completions `tools`: `[{"type":"function","function":{…}}]`. Strict where the tool
/// asks for it, or where `strict_by_default` and its schema allows it.
pub fn chat_tools<'e>(tools: impl IntoIterator<Item = &'e Entry>, strict_by_default: bool) -> ToolList {
    tool_array(tools, |out, entry, fallbacks| {
        let mut function = String::new();
        let mut inner = ObjectWriter::new(&mut function);
        function_members(&mut inner, entry, strict_by_default, fallbacks);
        inner.end();
        ObjectWriter::new(out).string("type", "function").raw("function", &function).end();
    })
}

/// Responses `tools`: `[{"type":"function","name":…,"parameters":…,"strict":…}]`.
pub fn responses_tools<'e>(tools: impl IntoIterator<Item = &'e Entry>, strict_by_default: bool) -> ToolList {
    tool_array(tools, |out, entry, fallbacks| {
        let mut object = ObjectWriter::new(out);
        object.string("type", "function");
        function_members(&mut object, entry, strict_by_default, fallbacks);
        object.end();
    })
}

/// The tool calls of a chat completion (`choices[0].message.tool_calls`).
///
/// # Errors
/// A [`ResponseError`] naming the first member that is missing or of the wrong type.
pub fn parse_chat_completion(response: &Value) -> Result<Vec<ToolCall>, ResponseError> {
    let message = response.pointer("/choices/0/message").ok_or_else(|| malformed("no /choices/0/message"))?;
    let Some(calls) = message.get("tool_calls").filter(|c| !c.is_null()) else { return Ok(Vec::new()) };
    let calls = calls.as_array().ok_or_else(|| malformed("/choices/0/message/tool_calls is not an array"))?;
    calls
        .iter()
        .map(|call| {
            Ok(ToolCall {
                id: string_at(call, "/id")?.to_owned(),
                name: string_at(call, "/function/name")?.to_owned(),
                arguments: CallArguments::Text(string_at(call, "/function/arguments")?.to_owned()),
            })
        })
        .collect()
}

/// The function calls of a Responses `output`.
///
/// # Errors
/// A [`ResponseError`] naming the first member that is missing or of the wrong type.
pub fn parse_responses_output(response: &Value) -> Result<Vec<ToolCall>, ResponseError> {
    let output = response.get("output").and_then(Value::as_array).ok_or_else(|| malformed("no /output array"))?;
    output
        .iter()
        .filter(|item| item.get("type").and_then(Value::as_str) == Some("function_call"))
        .map(|item| {
            Ok(ToolCall {
                id: string_at(item, "/call_id")?.to_owned(),
                name: string_at(item, "/name")?.to_owned(),
                arguments: CallArguments::Text(string_at(item, "/arguments")?.to_owned()),
            })
        })
        .collect()
}

/// Accumulates streamed `choices[].delta.tool_calls` fragments, by `index`, into calls.
#[derive(Debug, Default, Clone)]
pub struct ChatStream {
    calls: BTreeMap<u64, (String, String, String)>,
}

impl ChatStream {
    /// An empty accumulator.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one streamed chunk (`chat.completion.chunk`).
    ///
    /// # Errors
    /// A [`ResponseError`] when a tool call delta has no `index`.
    pub fn push(&mut self, chunk: &Value) -> Result<(), ResponseError> {
        let deltas = chunk.pointer("/choices/0/delta/tool_calls").and_then(Value::as_array);
        for delta in deltas.into_iter().flatten() {
            let index = delta
                .get("index")
                .and_then(Value::as_u64)
                .ok_or_else(|| malformed("a tool call delta has no index"))?;
            let (id, name, arguments) = self.calls.entry(index).or_default();
            if let Some(part) = delta.get("id").and_then(Value::as_str) {
                id.push_str(part);
            }
            if let Some(part) = delta.pointer("/function/name").and_then(Value::as_str) {
                name.push_str(part);
            }
            if let Some(part) = delta.pointer("/function/arguments").and_then(Value::as_str) {
                arguments.push_str(part);
            }
        }
        Ok(())
    }

    /// The complete calls, in index order.
    #[must_use]
    pub fn finish(self) -> Vec<ToolCall> {
        self.calls
            .into_values()
            .map(|(id, name, arguments)| ToolCall { id, name, arguments: CallArguments::Text(arguments) })
            .collect()
    }
}

/// Chat Completions result messages: one `{"role":"tool",…}` per call, in order. There is
/// no error flag on the wire: an error's text says what went wrong. Tool messages carry
/// text only: an image or audio block is described in words
/// ([`Content::describe`](crate::Content::describe)).
#[must_use]
pub fn tool_messages(results: &[CallResult]) -> Vec<Value> {
    results.iter().map(|r| json!({"role": "tool", "tool_call_id": r.id, "content": r.text()})).collect()
}

/// Responses input items: one `function_call_output` per call, in order. A text-only
/// result is a string; one with images or files is a list of `input_text`, `input_image`
/// (a `data:` URL) and `input_file` parts; audio is described in text, which the
/// Responses input cannot carry.
#[must_use]
pub fn function_call_outputs(results: &[CallResult]) -> Vec<Value> {
    results
        .iter()
        .map(|r| {
            let output = match &r.outcome {
                Ok(output) if !output.is_text_only() => Value::Array(output.content().iter().map(input_part).collect()),
                _ => Value::String(r.text()),
            };
            json!({"type": "function_call_output", "call_id": r.id, "output": output})
        })
        .collect()
}

fn input_part(block: &Content) -> Value {
    match block {
        Content::Image(media) => {
            json!({"type": "input_image", "image_url": format!("data:{};base64,{}", media.mime_type, media.data)})
        }
        Content::Resource(Resource { uri, mime_type, contents: ResourceContents::Blob(data) }) => {
            let mime = mime_type.as_deref().unwrap_or("application/octet-stream");
            let filename = uri.rsplit('/').next().unwrap_or(uri);
            json!({"type": "input_file", "filename": filename, "file_data": format!("data:{mime};base64,{data}")})
        }
        other => json!({"type": "input_text", "text": other.describe()}),
    }
}

/// `tool_choice` for Chat Completions, its named tools checked against `registry`.
///
/// # Errors
/// [`ToolError::UnknownTool`] when a named tool is not in `registry`.
pub fn chat_tool_choice(choice: &ToolChoice, registry: &Registry) -> Result<Value, ToolError> {
    choice.ensure_known(registry)?;
    Ok(match choice {
        ToolChoice::Auto => json!("auto"),
        ToolChoice::None => json!("none"),
        ToolChoice::Required => json!("required"),
        ToolChoice::Tool(name) => json!({"type": "function", "function": {"name": name}}),
        ToolChoice::Allowed { tools, required } => json!({
            "type": "allowed_tools",
            "allowed_tools": {
                "mode": if *required { "required" } else { "auto" },
                "tools": tools.iter().map(|name| json!({"type": "function", "function": {"name": name}})).collect::<Vec<_>>(),
            }
        }),
    })
}

/// `tool_choice` for Responses, its named tools checked against `registry`.
///
/// # Errors
/// [`ToolError::UnknownTool`] when a named tool is not in `registry`.
pub fn responses_tool_choice(choice: &ToolChoice, registry: &Registry) -> Result<Value, ToolError> {
    choice.ensure_known(registry)?;
    Ok(match choice {
        ToolChoice::Auto => json!("auto"),
        ToolChoice::None => json!("none"),
        ToolChoice::Required => json!("required"),
        ToolChoice::Tool(name) => json!({"type": "function", "name": name}),
        ToolChoice::Allowed { tools, required } => json!({
            "type": "allowed_tools",
            "mode": if *required { "required" } else { "auto" },
            "tools": tools.iter().map(|name| json!({"type": "function", "name": name})).collect::<Vec<_>>(),
        }),
    })
}
