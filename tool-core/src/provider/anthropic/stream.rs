//! [`MessageStream`]: a streamed Messages response, from `message_start` to `message_stop`.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::super::stream::{PartialCalls, event, fold_usage, unfinished};
use super::super::{
    ArgumentsMode, Delta, ModelTurn, ResponseError, StreamReader, malformed, parse_arguments, string_at,
};

/// Reads a streamed message: `content_block_start` opens a text or `tool_use` block (its id
/// and name), `text_delta` and `input_json_delta` fill them by `index`, `message_delta`
/// gives the stop reason and usage, `message_stop` ends it. A `tool_use` block's
/// `content_block_stop` closes its call ([`Delta::ToolCallDone`]) when its input is whole JSON. An `error` event fails the turn
/// with the provider's message.
#[derive(Debug, Default, Clone)]
pub struct MessageStream {
    blocks: BTreeMap<u64, Block>,
    /// The `tool_use` blocks, by their index.
    calls: PartialCalls,
    stop: Option<Value>,
    usage: Value,
    done: bool,
}

/// A content block as streamed so far.
#[derive(Debug, Clone)]
enum Block {
    Text(String),
    /// A `thinking` block: its text and signature, both streamed (the signature must go
    /// back with the block when the turn carries on after tool use).
    Thinking {
        thinking: String,
        signature: String,
    },
    /// A `tool_use` block, whose fields are in `MessageStream::calls`.
    ToolUse,
    /// Any other block (`thinking`, a server tool's), kept as it started.
    Other(Value),
}

impl MessageStream {
    /// An empty reader.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

fn index(event: &Value) -> Result<u64, ResponseError> {
    event.get("index").and_then(Value::as_u64).ok_or_else(|| malformed("a content block event has no index"))
}

impl StreamReader for MessageStream {
    fn push(&mut self, data: &str, on_delta: &mut dyn FnMut(Delta<'_>)) -> Result<(), ResponseError> {
        let Some(event) = event(data)? else { return Ok(()) };
        match event.get("type").and_then(Value::as_str) {
            Some("message_start") => fold_usage(&mut self.usage, event.pointer("/message/usage")),
            Some("content_block_start") => {
                let key = index(&event)?;
                let block = event.get("content_block").ok_or_else(|| malformed("no /content_block"))?;
                let block = match block.get("type").and_then(Value::as_str) {
                    Some("text") => Block::Text(block.get("text").and_then(Value::as_str).unwrap_or("").to_owned()),
                    Some("tool_use") => {
                        let call = self.calls.entry(key);
                        string_at(block, "/id")?.clone_into(&mut call.id);
                        string_at(block, "/name")?.clone_into(&mut call.name);
                        self.calls.hand_on(key, on_delta);
                        Block::ToolUse
                    }
                    Some("thinking") => Block::Thinking {
                        thinking: block.get("thinking").and_then(Value::as_str).unwrap_or_default().to_owned(),
                        signature: block.get("signature").and_then(Value::as_str).unwrap_or_default().to_owned(),
                    },
                    _ => Block::Other(block.clone()),
                };
                self.blocks.insert(key, block);
            }
            Some("content_block_delta") => {
                let key = index(&event)?;
                match event.pointer("/delta/type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        let text = string_at(&event, "/delta/text")?;
                        match self.blocks.entry(key).or_insert_with(|| Block::Text(String::new())) {
                            Block::Text(all) => all.push_str(text),
                            _ => return Err(malformed("a text_delta for a block that is not text")),
                        }
                        on_delta(Delta::Text(text));
                    }
                    Some("thinking_delta") => {
                        let text = string_at(&event, "/delta/thinking")?;
                        match self.blocks.get_mut(&key) {
                            Some(Block::Thinking { thinking, .. }) => thinking.push_str(text),
                            _ => return Err(malformed("a thinking_delta for a block that is not thinking")),
                        }
                        on_delta(Delta::Reasoning(text));
                    }
                    Some("signature_delta") => {
                        let part = string_at(&event, "/delta/signature")?;
                        match self.blocks.get_mut(&key) {
                            Some(Block::Thinking { signature, .. }) => signature.push_str(part),
                            _ => return Err(malformed("a signature_delta for a block that is not thinking")),
                        }
                    }
                    Some("input_json_delta") => {
                        let part = string_at(&event, "/delta/partial_json")?;
                        self.blocks.entry(key).or_insert(Block::ToolUse);
                        self.calls.entry(key).arguments.push_str(part);
                        self.calls.hand_on(key, on_delta);
                    }
                    _ => {}
                }
            }
            Some("content_block_stop") => {
                let key = index(&event)?;
                if matches!(self.blocks.get(&key), Some(Block::ToolUse)) {
                    self.calls.close(key, on_delta);
                }
            }
            Some("message_delta") => {
                if let Some(reason) = event.pointer("/delta/stop_reason").filter(|r| !r.is_null()) {
                    self.stop = Some(reason.clone());
                }
                fold_usage(&mut self.usage, event.get("usage"));
            }
            Some("message_stop") => self.done = true,
            Some("error") => {
                let error = event.get("error").unwrap_or(&Value::Null);
                return Err(malformed(format!("the stream reported an error: {error}")));
            }
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<ModelTurn, ResponseError> {
        let mut stream = core::mem::take(self);
        if !stream.done {
            return Err(unfinished());
        }
        let mut calls: BTreeMap<u64, _> = stream.calls.take().collect();
        let cut_off = stream.stop.as_ref().is_some_and(|stop| stop == "max_tokens");
        let mut content = Vec::with_capacity(stream.blocks.len());
        for (key, block) in stream.blocks {
            content.push(match block {
                Block::Text(text) => json!({"type": "text", "text": text}),
                Block::Thinking { thinking, signature } => {
                    json!({"type": "thinking", "thinking": thinking, "signature": signature})
                }
                Block::Other(value) => value,
                Block::ToolUse => {
                    let call = calls.remove(&key).unwrap_or_default();
                    json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input(&call.arguments, cut_off)?})
                }
            });
        }
        super::turn(&json!({"content": content, "stop_reason": stream.stop, "usage": stream.usage}))
    }
}

/// A tool's input, streamed as text: the message keeps it as an object. Input cut off at
/// the output limit (`cut_off`) is an empty object: the turn's stop reason says what
/// happened, and a cut-off call is never run.
fn input(text: &str, cut_off: bool) -> Result<Value, ResponseError> {
    let parsed = parse_arguments(if text.trim().is_empty() { "{}" } else { text });
    match (parsed.mode, parsed.value) {
        (ArgumentsMode::Strict | ArgumentsMode::Repaired, Some(value)) => Ok(value),
        _ if cut_off => Ok(Value::Object(serde_json::Map::new())),
        _ => Err(malformed(format!("a tool call's input is not JSON: {text}"))),
    }
}
