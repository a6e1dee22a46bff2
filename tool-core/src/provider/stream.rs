//! Streamed responses: [`StreamReader`], which each provider module implements once for its
//! format, folds server-sent events into the turn the API would have answered whole, handing
//! on text and tool calls as they arrive. Every reader is linear in the response's length
//! (text is appended, never rebuilt), and a stream that ends before the API's last event is
//! an error, never a turn built from half a response.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{ModelTurn, ResponseError, malformed};

/// What a streaming model has written so far, handed on as it arrives.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Delta<'a> {
    /// More text.
    Text(&'a str),
    /// More of what the model writes while it reasons (see [`ModelTurn::reasoning`]).
    Reasoning(&'a str),
    /// A tool call as it is being written: everything known of it so far.
    ToolCall {
        /// Its place among the turn's calls, as the stream numbers them.
        index: usize,
        /// Its id (empty until the stream has named it).
        id: &'a str,
        /// The tool (empty until the stream has named it).
        name: &'a str,
        /// The argument text so far.
        arguments: &'a str,
    },
    /// A tool call the stream has closed: its arguments are whole JSON and will not change.
    /// Each call of a turn gets at most one, before the turn ends; the agent may start the
    /// call then, in call order ([`Agent::early_calls`](crate::agent::Agent::early_calls)).
    /// A call that never gets one starts once the turn is whole.
    ToolCallDone {
        /// Its place among the turn's calls (its place in [`ModelTurn::calls`]).
        index: usize,
        /// Its id.
        id: &'a str,
        /// The tool.
        name: &'a str,
        /// The whole argument text (`{}` for a call streamed with none).
        arguments: &'a str,
    },
}

/// Folds one provider's server-sent events into a [`ModelTurn`]. [`Api::stream`](super::Api::stream)
/// gives the reader of an API; each is also public in its provider's module
/// ([`openai::ChatStream`](super::openai::ChatStream), [`openai::ResponsesStream`](super::openai::ResponsesStream),
/// [`anthropic::MessageStream`](super::anthropic::MessageStream), [`gemini::GenerateStream`](super::gemini::GenerateStream)).
pub trait StreamReader: Send {
    /// Folds in one event's `data` (blank data and keep-alives are skipped), handing
    /// `on_delta` the text it added and each tool call it wrote to.
    ///
    /// # Errors
    /// A [`ResponseError`] when the data is not JSON or an event is not the documented shape.
    fn push(&mut self, data: &str, on_delta: &mut dyn FnMut(Delta<'_>)) -> Result<(), ResponseError>;

    /// The whole turn, read as the API's unstreamed response would be; the reader is empty
    /// afterwards.
    ///
    /// # Errors
    /// A [`ResponseError`] when the stream ended before the API's last event, or its response
    /// is not the documented shape.
    fn finish(&mut self) -> Result<ModelTurn, ResponseError>;
}

/// One event's data as JSON; `None` for blank data.
pub(crate) fn event(data: &str) -> Result<Option<Value>, ResponseError> {
    let data = data.trim();
    if data.is_empty() {
        return Ok(None);
    }
    serde_json::from_str(data).map(Some).map_err(|e| malformed(format!("an event is not JSON ({e}): {data}")))
}

/// A tool call as written so far.
#[derive(Debug, Default, Clone)]
pub(crate) struct PartialCall {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) arguments: String,
    /// Whether [`Delta::ToolCallDone`] was handed on for it.
    done: bool,
}

/// The tool calls of a stream, by the stream's key for each (Chat's call index, Anthropic's
/// block index, Responses' output index, Gemini's part index).
#[derive(Debug, Default, Clone)]
pub(crate) struct PartialCalls(BTreeMap<u64, PartialCall>);

impl PartialCalls {
    /// The call under `key`, started empty when new.
    pub(crate) fn entry(&mut self, key: u64) -> &mut PartialCall {
        self.0.entry(key).or_default()
    }

    /// The greatest key so far.
    pub(crate) fn last_key(&self) -> Option<u64> {
        self.0.last_key_value().map(|(key, _)| *key)
    }

    /// Hands `on_delta` the call under `key` as written so far, numbered by its place.
    pub(crate) fn hand_on(&self, key: u64, on_delta: &mut dyn FnMut(Delta<'_>)) {
        let Some(call) = self.0.get(&key) else { return };
        let index = self.0.range(..key).count();
        on_delta(Delta::ToolCall { index, id: &call.id, name: &call.name, arguments: &call.arguments });
    }

    /// Hands `on_delta` [`Delta::ToolCallDone`] for the call under `key`, once, if it has a
    /// name and its arguments are whole JSON. A call whose text is not JSON yet is left open:
    /// it is not handed on, and starts only with the whole turn (a stream cut at the output
    /// limit, or a server that interleaves its calls, never starts a call early on half its
    /// arguments).
    pub(crate) fn close(&mut self, key: u64, on_delta: &mut dyn FnMut(Delta<'_>)) {
        let index = self.0.range(..key).count();
        let Some(call) = self.0.get_mut(&key) else { return };
        if call.done || call.name.is_empty() {
            return;
        }
        let arguments = if call.arguments.trim().is_empty() { "{}" } else { call.arguments.as_str() };
        if !whole_object(arguments) {
            return;
        }
        call.done = true;
        on_delta(Delta::ToolCallDone { index, id: &call.id, name: &call.name, arguments });
    }

    /// [`PartialCalls::close`] for every call under a key below `key` (all with `None`), in
    /// key order.
    pub(crate) fn close_before(&mut self, key: Option<u64>, on_delta: &mut dyn FnMut(Delta<'_>)) {
        let keys: Vec<u64> = self.0.keys().copied().filter(|k| key.is_none_or(|key| *k < key)).collect();
        for key in keys {
            self.close(key, on_delta);
        }
    }

    /// The calls in key order, taken.
    pub(crate) fn take(&mut self) -> impl Iterator<Item = (u64, PartialCall)> {
        core::mem::take(&mut self.0).into_iter()
    }
}

/// Whether `text` is one whole JSON object, as sent (no repair).
pub(crate) fn whole_object(text: &str) -> bool {
    text.trim_start().starts_with('{') && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

/// A usage object folded across events: later counts replace earlier ones.
pub(crate) fn fold_usage(usage: &mut Value, more: Option<&Value>) {
    let Some(Value::Object(more)) = more else { return };
    if !usage.is_object() {
        *usage = json!({});
    }
    if let Value::Object(usage) = usage {
        usage.extend(more.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
}

/// The error for a stream that ended before its last event.
pub(crate) fn unfinished() -> ResponseError {
    malformed("the stream ended before the response was complete")
}
