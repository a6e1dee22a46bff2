//! Streamed responses: each API's server-sent events folded into the response the API
//! would have sent whole, so one reader ([`Api::turn`]) serves both; text is handed on as
//! it arrives. A stream that ends before the API's last event is an error, never a turn
//! built from half a response.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::super::model::{Api, Delta, DeltaSink};
use crate::provider::{ArgumentsMode, parse_arguments};

/// What one event added: text, and the calls it wrote to (by their key in
/// [`Accumulator::call`]).
#[derive(Default)]
pub(super) struct Pushed {
    pub(super) text: Option<String>,
    pub(super) calls: Vec<u64>,
}

/// The response so far.
pub(super) struct Accumulator {
    api: Api,
    text: String,
    /// Tool calls as written so far (id, name, arguments), by the stream's key: Chat's call
    /// index, Anthropic's block index, Responses' output index, Gemini's part index.
    calls: BTreeMap<u64, (String, String, String)>,
    /// Anthropic content blocks by index; Gemini parts in order.
    blocks: BTreeMap<u64, Value>,
    parts: Vec<Value>,
    stop: Option<Value>,
    usage: Map<String, Value>,
    /// Responses: the whole response, from `response.completed`.
    completed: Option<Value>,
    finished: bool,
}

impl Accumulator {
    pub(super) fn new(api: Api) -> Self {
        Accumulator {
            api,
            text: String::new(),
            calls: BTreeMap::new(),
            blocks: BTreeMap::new(),
            parts: Vec::new(),
            stop: None,
            usage: Map::new(),
            completed: None,
            finished: false,
        }
    }

    /// Folds in one event's data; what it added.
    pub(super) fn push(&mut self, data: &str) -> Result<Pushed, String> {
        let data = data.trim();
        if data.is_empty() {
            return Ok(Pushed::default());
        }
        if data == "[DONE]" {
            self.finished = true;
            return Ok(Pushed::default());
        }
        let event: Value = serde_json::from_str(data).map_err(|e| format!("an event is not JSON ({e}): {data}"))?;
        let mut calls = Vec::new();
        let text = match self.api {
            Api::OpenAiChat => self.chat(&event, &mut calls),
            Api::Anthropic => self.anthropic(&event, &mut calls),
            Api::Gemini => self.gemini(&event, &mut calls),
            Api::OpenAiResponses => self.responses(event, &mut calls),
        };
        Ok(Pushed { text, calls })
    }

    /// Hands `on_delta` the call under `key` as written so far.
    pub(super) fn call(&self, key: u64, on_delta: DeltaSink<'_>) {
        let Some((id, name, arguments)) = self.calls.get(&key) else { return };
        let index = self.calls.range(..key).count();
        on_delta(Delta::ToolCall { index, id, name, arguments });
    }

    fn chat(&mut self, event: &Value, calls: &mut Vec<u64>) -> Option<String> {
        if let Some(usage) = event.get("usage").and_then(Value::as_object) {
            self.usage.clone_from(usage);
        }
        let choice = event.pointer("/choices/0")?;
        if let Some(reason) = choice.get("finish_reason").filter(|r| !r.is_null()) {
            self.stop = Some(reason.clone());
        }
        for delta in choice.pointer("/delta/tool_calls").and_then(Value::as_array).into_iter().flatten() {
            let index = delta.get("index").and_then(Value::as_u64).unwrap_or(0);
            let (id, name, arguments) = self.calls.entry(index).or_default();
            let piece = |pointer: &str| delta.pointer(pointer).and_then(Value::as_str).unwrap_or_default();
            id.push_str(piece("/id"));
            name.push_str(piece("/function/name"));
            arguments.push_str(piece("/function/arguments"));
            calls.push(index);
        }
        let text = choice.pointer("/delta/content").and_then(Value::as_str)?;
        self.text.push_str(text);
        Some(text.to_owned())
    }

    fn anthropic(&mut self, event: &Value, calls: &mut Vec<u64>) -> Option<String> {
        let index = event.get("index").and_then(Value::as_u64).unwrap_or(0);
        match event.get("type").and_then(Value::as_str)? {
            "message_start" => {
                if let Some(usage) = event.pointer("/message/usage").and_then(Value::as_object) {
                    self.usage.extend(usage.clone());
                }
            }
            "content_block_start" => {
                let block = event.get("content_block").cloned().unwrap_or(Value::Null);
                if block.get("type").and_then(Value::as_str) == Some("tool_use") {
                    let text = |key: &str| block.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
                    self.calls.insert(index, (text("id"), text("name"), String::new()));
                    calls.push(index);
                }
                self.blocks.insert(index, block);
            }
            "content_block_delta" => {
                let delta = event.get("delta")?;
                match delta.get("type").and_then(Value::as_str)? {
                    "text_delta" => {
                        let text = delta.get("text").and_then(Value::as_str)?;
                        if let Some(block) = self.blocks.get_mut(&index) {
                            let joined = format!("{}{text}", block["text"].as_str().unwrap_or_default());
                            block["text"] = json!(joined);
                        }
                        self.text.push_str(text);
                        return Some(text.to_owned());
                    }
                    "input_json_delta" => {
                        let part = delta.get("partial_json").and_then(Value::as_str)?;
                        self.calls.entry(index).or_default().2.push_str(part);
                        calls.push(index);
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(reason) = event.pointer("/delta/stop_reason") {
                    self.stop = Some(reason.clone());
                }
                if let Some(usage) = event.get("usage").and_then(Value::as_object) {
                    self.usage.extend(usage.clone());
                }
            }
            "message_stop" => self.finished = true,
            _ => {}
        }
        None
    }

    fn gemini(&mut self, event: &Value, calls: &mut Vec<u64>) -> Option<String> {
        if let Some(usage) = event.get("usageMetadata").and_then(Value::as_object) {
            self.usage.clone_from(usage);
        }
        let candidate = event.pointer("/candidates/0")?;
        if let Some(reason) = candidate.get("finishReason") {
            self.stop = Some(reason.clone());
            self.finished = true;
        }
        let mut added = String::new();
        for part in candidate.pointer("/content/parts").and_then(Value::as_array).into_iter().flatten() {
            match (part.get("text").and_then(Value::as_str), self.parts.last_mut()) {
                (Some(text), Some(last)) if last.get("text").is_some() => {
                    let joined = format!("{}{text}", last["text"].as_str().unwrap_or_default());
                    last["text"] = json!(joined);
                    added.push_str(text);
                }
                (Some(text), _) => {
                    self.parts.push(part.clone());
                    added.push_str(text);
                }
                (None, _) => {
                    self.parts.push(part.clone());
                    // Gemini sends a call whole; its id, when it has none, as the turn names it.
                    if let Some(call) = part.get("functionCall") {
                        let key = (self.parts.len() - 1) as u64;
                        let name = call.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
                        let id = call
                            .get("id")
                            .and_then(Value::as_str)
                            .map_or_else(|| format!("gemini-call-{key}-{name}"), str::to_owned);
                        let arguments = call.get("args").map_or_else(|| "{}".to_owned(), Value::to_string);
                        self.calls.insert(key, (id, name, arguments));
                        calls.push(key);
                    }
                }
            }
        }
        self.text.push_str(&added);
        (!added.is_empty()).then_some(added)
    }

    fn responses(&mut self, event: Value, calls: &mut Vec<u64>) -> Option<String> {
        let index = event.get("output_index").and_then(Value::as_u64).unwrap_or(0);
        match event.get("type").and_then(Value::as_str)? {
            "response.output_item.added" => {
                let item = event.get("item")?;
                if item.get("type").and_then(Value::as_str) == Some("function_call") {
                    let text = |key: &str| item.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
                    self.calls.insert(index, (text("call_id"), text("name"), text("arguments")));
                    calls.push(index);
                }
                None
            }
            "response.function_call_arguments.delta" => {
                let delta = event.get("delta").and_then(Value::as_str)?;
                self.calls.entry(index).or_default().2.push_str(delta);
                calls.push(index);
                None
            }
            "response.output_text.delta" => {
                let text = event.get("delta").and_then(Value::as_str)?.to_owned();
                self.text.push_str(&text);
                Some(text)
            }
            "response.completed" | "response.incomplete" => {
                self.completed = event.get("response").cloned();
                self.finished = true;
                None
            }
            _ => None,
        }
    }

    /// The whole response, as the API sends it unstreamed.
    pub(super) fn finish(self) -> Result<Value, String> {
        if !self.finished {
            return Err("the stream ended before the response was complete".to_owned());
        }
        Ok(match self.api {
            Api::OpenAiChat => {
                let tool_calls: Vec<Value> = self
                    .calls
                    .into_values()
                    .map(|(id, name, arguments)| {
                        json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
                    })
                    .collect();
                let mut message = json!({"role": "assistant", "content": if self.text.is_empty() { Value::Null } else { json!(self.text) }});
                if !tool_calls.is_empty() {
                    message["tool_calls"] = Value::Array(tool_calls);
                }
                json!({"choices": [{"index": 0, "message": message, "finish_reason": self.stop}], "usage": self.usage})
            }
            Api::Anthropic => {
                let mut blocks = self.blocks;
                for (index, (_, _, text)) in self.calls {
                    if let Some(block) = blocks.get_mut(&index) {
                        // A tool's input arrives as text; the message keeps it as an object.
                        let parsed = parse_arguments(if text.trim().is_empty() { "{}" } else { &text });
                        block["input"] = match (parsed.mode, parsed.value) {
                            (ArgumentsMode::Strict | ArgumentsMode::Repaired, Some(value)) => value,
                            _ => return Err(format!("a tool call's input is not JSON: {text}")),
                        };
                    }
                }
                json!({"content": blocks.into_values().collect::<Vec<_>>(), "stop_reason": self.stop, "usage": self.usage})
            }
            Api::Gemini => json!({
                "candidates": [{"content": {"role": "model", "parts": self.parts}, "finishReason": self.stop}],
                "usageMetadata": self.usage
            }),
            Api::OpenAiResponses => self.completed.ok_or("no response.completed event")?,
        })
    }
}
