//! Responses: flat function tools, `function_call` output items (arguments as JSON text),
//! `function_call_output` results that may carry images and files, streams whose
//! `response.completed` event holds the whole response, and the request body (`input`,
//! `instructions`, `text.format`).

use serde_json::{Map, Value, json};

use super::super::stream::{PartialCalls, event, unfinished};
use super::super::turn::{Envelope, answer_schema, put_tools};
use super::super::wire::Wire;
use super::super::{
    Arguments, CallResult, Delta, ModelRequest, ModelTurn, ObjectWriter, ResponseError, SamplingMembers, StopReason,
    StreamReader, ToolCall, ToolChoice, ToolList, Usage, malformed, string_at, tool_array,
};
use super::function_members;
use crate::content::{Content, Resource, ResourceContents};
use crate::error::ToolError;
use crate::registry::{Entry, Registry};
use crate::render::Dialect;
use crate::schema::Schema;

/// Where the Responses API takes each sampling setting: it has no seed and no stop sequences.
const SAMPLING: SamplingMembers = SamplingMembers {
    temperature: "temperature",
    top_p: "top_p",
    seed: None,
    max_tokens: "max_output_tokens",
    stop: None,
};

/// Responses `tools`: `[{"type":"function","name":…,"parameters":…,"strict":…}]`.
pub fn responses_tools<'e>(tools: impl IntoIterator<Item = &'e Entry>, strict_by_default: bool) -> ToolList {
    tool_array(tools, |out, entry, fallbacks| {
        let mut object = ObjectWriter::new(out);
        object.string("type", "function");
        function_members(&mut object, entry, strict_by_default, true, fallbacks);
        object.end();
    })
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
                arguments: Arguments::Text(string_at(item, "/arguments")?.to_owned().into()),
            })
        })
        .collect()
}

/// Why a response ended: a `refusal` part in a message; why it is `incomplete`
/// (`max_output_tokens`, `content_filter`); else its `status`.
fn responses_reason<'r>(response: &'r Value, output: &[Value]) -> Option<&'r str> {
    let refused = output
        .iter()
        .filter_map(|item| item.get("content").and_then(Value::as_array))
        .flatten()
        .any(|part| part.get("type").and_then(Value::as_str) == Some("refusal"));
    let status = response.get("status").and_then(Value::as_str);
    if refused {
        Some("refusal")
    } else if status == Some("incomplete") {
        response.pointer("/incomplete_details/reason").and_then(Value::as_str).or(status)
    } else {
        status
    }
}

/// A response as a turn: the text of its `message` items, its calls, `status`, `usage`, and
/// every output item for the history.
fn turn(response: &Value) -> Result<ModelTurn, ResponseError> {
    let calls = parse_responses_output(response)?;
    let output = response.get("output").and_then(Value::as_array).cloned().unwrap_or_default();
    let text = output
        .iter()
        .filter(|item| item.get("type").and_then(Value::as_str) == Some("message"))
        .flat_map(|item| item.get("content").and_then(Value::as_array).into_iter().flatten())
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect();
    // Reasoning items: their summaries (and, where a server sends it, the reasoning text).
    let reasoning = output
        .iter()
        .filter(|item| item.get("type").and_then(Value::as_str) == Some("reasoning"))
        .flat_map(|item| {
            let summary = item.get("summary").and_then(Value::as_array).into_iter().flatten();
            summary.chain(item.get("content").and_then(Value::as_array).into_iter().flatten())
        })
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect();
    Ok(ModelTurn {
        text,
        reasoning,
        stop: StopReason::of(responses_reason(response, &output), !calls.is_empty()),
        usage: Usage::at(response, "/usage/input_tokens", "/usage/output_tokens"),
        calls,
        items: output,
    })
}

/// Reads a streamed response: `response.output_text.delta` text, function calls from
/// `response.output_item.added` and `response.function_call_arguments.delta` (by
/// `output_index`, or by the item's id where a server sends no index, as `llama.cpp` does),
/// `response.output_item.done` closing a call ([`Delta::ToolCallDone`]) with the item's own
/// arguments, and the whole response from `response.completed` (or `response.incomplete`), which is what
/// the turn is read from.
#[derive(Debug, Default, Clone)]
pub struct ResponsesStream {
    calls: PartialCalls,
    completed: Option<Value>,
    /// The ids of the items met without an `output_index`, in order.
    unindexed: Vec<String>,
}

impl ResponsesStream {
    /// The key of an event's call: its `output_index`, else the place of its item's id (at
    /// `id`) among the items met so far without one.
    fn key(&mut self, event: &Value, id: &str) -> Result<u64, ResponseError> {
        if let Some(index) = event.get("output_index").and_then(Value::as_u64) {
            return Ok(index);
        }
        let id =
            event.pointer(id).and_then(Value::as_str).ok_or_else(|| malformed("no output_index and no item id"))?;
        let place = self.unindexed.iter().position(|known| known == id).unwrap_or_else(|| {
            self.unindexed.push(id.to_owned());
            self.unindexed.len() - 1
        });
        Ok(u64::try_from(place).unwrap_or(u64::MAX))
    }
}

impl ResponsesStream {
    /// An empty reader.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl StreamReader for ResponsesStream {
    fn push(&mut self, data: &str, on_delta: &mut dyn FnMut(Delta<'_>)) -> Result<(), ResponseError> {
        let Some(mut event) = event(data)? else { return Ok(()) };
        let kind = event.get("type").and_then(Value::as_str);
        if matches!(kind, Some("response.completed" | "response.incomplete")) {
            self.completed = Some(event.get_mut("response").map(Value::take).unwrap_or_default());
            return Ok(());
        }
        match kind {
            Some("response.output_item.added")
                if event.pointer("/item/type").and_then(Value::as_str) == Some("function_call") =>
            {
                let key = self.key(&event, "/item/id")?;
                let call = self.calls.entry(key);
                let text = |pointer: &str| event.pointer(pointer).and_then(Value::as_str).unwrap_or_default();
                text("/item/call_id").clone_into(&mut call.id);
                text("/item/name").clone_into(&mut call.name);
                text("/item/arguments").clone_into(&mut call.arguments);
                self.calls.hand_on(key, on_delta);
            }
            Some("response.function_call_arguments.delta") => {
                let key = self.key(&event, "/item_id")?;
                self.calls.entry(key).arguments.push_str(string_at(&event, "/delta")?);
                self.calls.hand_on(key, on_delta);
            }
            Some("response.output_item.done")
                if event.pointer("/item/type").and_then(Value::as_str) == Some("function_call") =>
            {
                let key = self.key(&event, "/item/id")?;
                let call = self.calls.entry(key);
                // The item as it ended is the call's last word (a server may not have streamed
                // every delta).
                if let Some(arguments) = event.pointer("/item/arguments").and_then(Value::as_str) {
                    arguments.clone_into(&mut call.arguments);
                }
                if call.id.is_empty()
                    && let Some(id) = event.pointer("/item/call_id").and_then(Value::as_str)
                {
                    id.clone_into(&mut call.id);
                }
                if call.name.is_empty()
                    && let Some(name) = event.pointer("/item/name").and_then(Value::as_str)
                {
                    name.clone_into(&mut call.name);
                }
                self.calls.close(key, on_delta);
            }
            Some("response.output_text.delta") => on_delta(Delta::Text(string_at(&event, "/delta")?)),
            Some("response.reasoning_summary_text.delta" | "response.reasoning_text.delta") => {
                on_delta(Delta::Reasoning(string_at(&event, "/delta")?));
            }
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<ModelTurn, ResponseError> {
        let stream = core::mem::take(self);
        turn(&stream.completed.ok_or_else(unfinished)?)
    }
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
    match block.plain() {
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

/// Responses as the agent speaks it.
pub(crate) struct Responses;

impl Wire for Responses {
    fn provider_name(&self) -> &'static str {
        "openai"
    }

    fn defaults(&self) -> (&'static str, &'static str, &'static str) {
        super::DEFAULTS
    }

    fn results(&self, results: &[CallResult]) -> Vec<Value> {
        function_call_outputs(results)
    }

    fn tools(&self, registry: &Registry, strict_by_default: bool) -> ToolList {
        responses_tools(registry.in_added_order(), strict_by_default)
    }

    fn tool_choice(&self, choice: &ToolChoice, registry: &Registry) -> Result<Value, ToolError> {
        responses_tool_choice(choice, registry)
    }

    fn turn(&self, response: &Value) -> Result<ModelTurn, ResponseError> {
        turn(response)
    }

    fn stream(&self) -> Box<dyn StreamReader> {
        Box::new(ResponsesStream::new())
    }

    fn url(&self, base: &str, _model: &str, _stream: bool) -> String {
        format!("{base}/responses")
    }

    fn headers(&self, api_key: Option<&str>) -> Vec<(&'static str, String)> {
        super::bearer(api_key)
    }

    fn mend_arguments(&self, items: &mut [Value], id: &str, arguments: &str) {
        for item in items.iter_mut().filter(|item| item["type"] == "function_call" && item["call_id"] == id) {
            item["arguments"] = json!(arguments);
        }
    }

    fn body(&self, request: &ModelRequest<'_>, envelope: Envelope<'_>) -> Map<String, Value> {
        let mut body = Map::new();
        body.insert("model".to_owned(), json!(envelope.model));
        if let Some(system) = request.system {
            body.insert("instructions".to_owned(), json!(system));
        }
        body.insert("input".to_owned(), Value::Array(request.history.to_vec()));
        SAMPLING.put(&mut body, request.sampling, envelope.max_tokens);
        put_tools(&mut body, request, false);
        if envelope.stream {
            body.insert("stream".to_owned(), json!(true));
        }
        body
    }

    fn answer_format(&self, schema: &Schema, name: &str) -> Value {
        let (schema, strict) = answer_schema(schema, Dialect::OpenAiStrict);
        json!({"text": {"format": {"type": "json_schema", "name": name, "schema": schema, "strict": strict}}})
    }
}
