//! [`GenerateStream`]: a streamed `streamGenerateContent` response (`alt=sse`), each event
//! a `GenerateContentResponse` holding the next parts.

use serde_json::{Value, json};

use super::super::stream::{PartialCalls, event, fold_usage, unfinished};
use super::super::{Delta, ModelTurn, ResponseError, StreamReader};
use super::call_id;

/// Reads a streamed response: text parts are joined as they arrive, a `functionCall` part
/// comes whole (its id made as [`parse_candidate`](super::parse_candidate) makes it when it
/// has none), and the event with a `finishReason` is the last.
#[derive(Debug, Default, Clone)]
pub struct GenerateStream {
    parts: Vec<Part>,
    calls: PartialCalls,
    stop: Option<Value>,
    usage: Value,
    done: bool,
}

/// A part as streamed so far.
#[derive(Debug, Clone)]
enum Part {
    /// A text part as it started (its other fields), and its text so far.
    Text(Value, String),
    Other(Value),
}

impl GenerateStream {
    /// An empty reader.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl StreamReader for GenerateStream {
    fn push(&mut self, data: &str, on_delta: &mut dyn FnMut(Delta<'_>)) -> Result<(), ResponseError> {
        let Some(event) = event(data)? else { return Ok(()) };
        fold_usage(&mut self.usage, event.get("usageMetadata"));
        let Some(candidate) = event.pointer("/candidates/0") else { return Ok(()) };
        for part in candidate.pointer("/content/parts").and_then(Value::as_array).into_iter().flatten() {
            if let Some(text) = part.get("text").and_then(Value::as_str) {
                // Text joins the part before it only when both are thoughts or neither is.
                let thought = part.get("thought").and_then(Value::as_bool) == Some(true);
                match self.parts.last_mut() {
                    Some(Part::Text(last, all))
                        if (last.get("thought").and_then(Value::as_bool) == Some(true)) == thought =>
                    {
                        all.push_str(text);
                    }
                    _ => self.parts.push(Part::Text(part.clone(), text.to_owned())),
                }
                on_delta(if thought { Delta::Reasoning(text) } else { Delta::Text(text) });
                continue;
            }
            let position = self.parts.len();
            self.parts.push(Part::Other(part.clone()));
            if let Some(call) = part.get("functionCall") {
                let key = position as u64;
                let entry = self.calls.entry(key);
                call.get("name").and_then(Value::as_str).unwrap_or_default().clone_into(&mut entry.name);
                entry.id = call_id(call, position, &entry.name);
                entry.arguments = call.get("args").map_or_else(|| "{}".to_owned(), Value::to_string);
                self.calls.hand_on(key, on_delta);
                // A `functionCall` part comes whole.
                self.calls.close(key, on_delta);
            }
        }
        if let Some(reason) = candidate.get("finishReason").filter(|r| !r.is_null()) {
            self.stop = Some(reason.clone());
            self.done = true;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<ModelTurn, ResponseError> {
        let stream = core::mem::take(self);
        if !stream.done {
            return Err(unfinished());
        }
        let parts: Vec<Value> = stream
            .parts
            .into_iter()
            .map(|part| match part {
                Part::Text(mut part, text) => {
                    part["text"] = Value::String(text);
                    part
                }
                Part::Other(part) => part,
            })
            .collect();
        super::turn(&json!({
            "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": stream.stop}],
            "usageMetadata": stream.usage
        }))
    }
}
