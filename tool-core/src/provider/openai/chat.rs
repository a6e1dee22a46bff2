//! Chat Completions: `tools[].function`, `choices[0].message.tool_calls` (arguments as JSON
//! text), `role: tool` results, `chat.completion.chunk` streams ending in `[DONE]`, and the
//! request body (`messages` with the system message first, `response_format`).

use serde_json::{Map, Value, json};

use super::super::stream::{PartialCalls, event, fold_usage, unfinished};
use super::super::turn::{Envelope, answer_schema, put_tools};
use super::super::wire::{Wire, add_note};
use super::super::{
    Arguments, CallResult, Delta, ModelRequest, ModelTurn, ObjectWriter, ResponseError, SamplingMembers, StopReason,
    StreamReader, ToolCall, ToolChoice, ToolList, Usage, malformed, string_at, tool_array,
};
use super::function_members;
use crate::error::ToolError;
use crate::registry::{Entry, Registry};
use crate::render::Dialect;
use crate::schema::Schema;

/// Where Chat Completions takes each sampling setting.
const SAMPLING: SamplingMembers = SamplingMembers {
    temperature: "temperature",
    top_p: "top_p",
    seed: Some("seed"),
    max_tokens: "max_completion_tokens",
    stop: Some("stop"),
};

/// Chat Completions `tools`: `[{"type":"function","function":{…}}]`. Strict where the tool
/// asks for it, or where `strict_by_default` and its schema allows it.
pub fn chat_tools<'e>(tools: impl IntoIterator<Item = &'e Entry>, strict_by_default: bool) -> ToolList {
    tool_array(tools, |out, entry, fallbacks| {
        let mut function = String::new();
        let mut inner = ObjectWriter::new(&mut function);
        function_members(&mut inner, entry, strict_by_default, false, fallbacks);
        inner.end();
        ObjectWriter::new(out).string("type", "function").raw("function", &function).end();
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
                arguments: Arguments::Text(string_at(call, "/function/arguments")?.to_owned().into()),
            })
        })
        .collect()
}

/// What a message or a delta holds of the model's reasoning: `reasoning_content`
/// (`llama.cpp`, vLLM, `DeepSeek`) or `reasoning` (Ollama, `OpenRouter`).
fn reasoning_of(message: &Value) -> Option<&str> {
    message.get("reasoning_content").or_else(|| message.get("reasoning")).and_then(Value::as_str)
}

/// A chat completion as a turn: the message's text and calls, `finish_reason`, `usage`, and
/// the message itself as the history item.
fn turn(response: &Value) -> Result<ModelTurn, ResponseError> {
    let calls = parse_chat_completion(response)?;
    let mut message =
        response.pointer("/choices/0/message").cloned().ok_or_else(|| malformed("no /choices/0/message"))?;
    let reasoning = reasoning_of(&message).unwrap_or_default().to_owned();
    // Kept in the turn, not in the history: servers that send it refuse it back (`DeepSeek`).
    if let Some(fields) = message.as_object_mut() {
        fields.remove("reasoning_content");
        fields.remove("reasoning");
    }
    Ok(ModelTurn {
        text: message.get("content").and_then(Value::as_str).unwrap_or_default().to_owned(),
        reasoning,
        stop: StopReason::of(
            // A structured-output refusal comes as the message's `refusal`, its finish `stop`.
            if message.get("refusal").and_then(Value::as_str).is_some_and(|text| !text.is_empty()) {
                Some("refusal")
            } else {
                response.pointer("/choices/0/finish_reason").and_then(Value::as_str)
            },
            !calls.is_empty(),
        ),
        usage: Usage::at(response, "/usage/prompt_tokens", "/usage/completion_tokens"),
        calls,
        items: vec![message],
    })
}

/// Reads a streamed chat completion: `choices[0].delta` text and `tool_calls` fragments
/// joined by `index`, `finish_reason`, the last chunk's `usage`, ended by `[DONE]`. A call is
/// closed ([`Delta::ToolCallDone`]) when the next call starts or `finish_reason` comes (but
/// `length`), if its arguments are whole JSON by then.
///
/// A fragment without `index` (some compatible servers send each call whole without one)
/// starts a new call when it carries an `id`, and continues the latest call otherwise.
#[derive(Debug, Default, Clone)]
pub struct ChatStream {
    text: String,
    reasoning: String,
    calls: PartialCalls,
    stop: Option<Value>,
    usage: Value,
    done: bool,
}

impl ChatStream {
    /// An empty reader.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The key of a fragment: its `index`, or, without one, a new call for a new `id` and
    /// the latest call otherwise.
    fn key(&self, delta: &Value) -> u64 {
        if let Some(index) = delta.get("index").and_then(Value::as_u64) {
            return index;
        }
        let named = delta.get("id").and_then(Value::as_str).is_some_and(|id| !id.is_empty());
        match self.calls.last_key() {
            Some(last) if named => last + 1,
            Some(last) => last,
            None => 0,
        }
    }
}

impl StreamReader for ChatStream {
    fn push(&mut self, data: &str, on_delta: &mut dyn FnMut(Delta<'_>)) -> Result<(), ResponseError> {
        if data.trim() == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        let Some(chunk) = event(data)? else { return Ok(()) };
        fold_usage(&mut self.usage, chunk.get("usage"));
        let Some(choice) = chunk.pointer("/choices/0") else { return Ok(()) };
        let finished = choice.get("finish_reason").filter(|r| !r.is_null());
        if let Some(reason) = finished {
            self.stop = Some(reason.clone());
        }
        if let Some(text) = choice.get("delta").and_then(reasoning_of).filter(|t| !t.is_empty()) {
            self.reasoning.push_str(text);
            on_delta(Delta::Reasoning(text));
        }
        if let Some(text) = choice.pointer("/delta/content").and_then(Value::as_str).filter(|t| !t.is_empty()) {
            self.text.push_str(text);
            on_delta(Delta::Text(text));
        }
        let deltas = match choice.pointer("/delta/tool_calls") {
            None | Some(Value::Null) => &[][..],
            Some(Value::Array(deltas)) => deltas,
            Some(_) => return Err(malformed("/choices/0/delta/tool_calls is not an array")),
        };
        for delta in deltas {
            let key = self.key(delta);
            // Calls stream one after another: a new one closes those before it.
            if self.calls.last_key().is_none_or(|last| last < key) {
                self.calls.close_before(Some(key), on_delta);
            }
            let call = self.calls.entry(key);
            let piece = |pointer: &str| delta.pointer(pointer).and_then(Value::as_str).unwrap_or_default();
            call.id.push_str(piece("/id"));
            call.name.push_str(piece("/function/name"));
            call.arguments.push_str(piece("/function/arguments"));
            self.calls.hand_on(key, on_delta);
        }
        // A turn cut off at the output limit leaves its last call open: nothing but the cut
        // ended it.
        match finished {
            Some(reason) if reason == "length" => self.calls.close_before(self.calls.last_key(), on_delta),
            Some(_) => self.calls.close_before(None, on_delta),
            None => {}
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<ModelTurn, ResponseError> {
        let stream = core::mem::take(self);
        if !stream.done {
            return Err(unfinished());
        }
        let mut calls = stream.calls;
        let tool_calls: Vec<Value> = calls
            .take()
            .map(|(_, call)| {
                json!({"id": call.id, "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments}})
            })
            .collect();
        let content = if stream.text.is_empty() { Value::Null } else { Value::String(stream.text) };
        let mut message = json!({"role": "assistant", "content": content});
        if !tool_calls.is_empty() {
            message["tool_calls"] = Value::Array(tool_calls);
        }
        let turn = turn(
            &json!({"choices": [{"index": 0, "message": message, "finish_reason": stream.stop}], "usage": stream.usage}),
        )?;
        Ok(turn.with_reasoning(stream.reasoning))
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

/// Chat Completions as the agent speaks it.
pub(crate) struct Chat;

impl Wire for Chat {
    fn provider_name(&self) -> &'static str {
        "openai"
    }

    fn defaults(&self) -> (&'static str, &'static str, &'static str) {
        super::DEFAULTS
    }

    fn results(&self, results: &[CallResult]) -> Vec<Value> {
        tool_messages(results)
    }

    fn tools(&self, registry: &Registry, strict_by_default: bool) -> ToolList {
        chat_tools(registry.in_added_order(), strict_by_default)
    }

    fn tool_choice(&self, choice: &ToolChoice, registry: &Registry) -> Result<Value, ToolError> {
        chat_tool_choice(choice, registry)
    }

    fn turn(&self, response: &Value) -> Result<ModelTurn, ResponseError> {
        turn(response)
    }

    fn stream(&self) -> Box<dyn StreamReader> {
        Box::new(ChatStream::new())
    }

    fn url(&self, base: &str, _model: &str, _stream: bool) -> String {
        format!("{base}/chat/completions")
    }

    fn headers(&self, api_key: Option<&str>) -> Vec<(&'static str, String)> {
        super::bearer(api_key)
    }

    fn add_to_description(&self, tools: &mut Value, name: &str, note: &str) {
        let functions = tools.as_array_mut().into_iter().flatten().map(|tool| &mut tool["function"]);
        add_note(functions.filter(|function| function["name"] == name), note);
    }

    fn mend_arguments(&self, items: &mut [Value], id: &str, arguments: &str) {
        let calls = items.iter_mut().filter_map(|item| item.get_mut("tool_calls")?.as_array_mut()).flatten();
        for call in calls.filter(|call| call["id"] == id) {
            call["function"]["arguments"] = json!(arguments);
        }
    }

    fn body(&self, request: &ModelRequest<'_>, envelope: Envelope<'_>) -> Map<String, Value> {
        let mut body = Map::new();
        body.insert("model".to_owned(), json!(envelope.model));
        let mut messages = Vec::with_capacity(request.history.len() + 1);
        if let Some(system) = request.system {
            messages.push(json!({"role": "system", "content": system}));
        }
        messages.extend(request.history.iter().cloned());
        body.insert("messages".to_owned(), Value::Array(messages));
        SAMPLING.put(&mut body, request.sampling, envelope.max_tokens);
        put_tools(&mut body, request, false);
        if envelope.stream {
            body.insert("stream".to_owned(), json!(true));
            body.insert("stream_options".to_owned(), json!({"include_usage": true}));
        }
        body
    }

    fn answer_format(&self, schema: &Schema, name: &str) -> Value {
        let (schema, strict) = answer_schema(schema, Dialect::OpenAiStrict);
        json!({"response_format": {"type": "json_schema",
            "json_schema": {"name": name, "schema": schema, "strict": strict}}})
    }
}
